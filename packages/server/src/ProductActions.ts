/**
 * What `kasko products check` does: reads each product folder's JSON files, checks them (`ProductCheck` of
 * `@kasko/core/actuarial`, pure) and prints every finding as `file: path: message`, errors first, then a summary.
 */
import { type CommandResult, EXIT_INVALID, EXIT_OK, json, UsageError } from "./CommandResult.js"
import { checkedFolders, findingLine, ProductDirectoryUnreadable } from "./ProductFolders.js"

const count = (number: number, noun: string) => `${number} ${noun}${number === 1 ? "" : "s"}`

export const checkProducts = async (argv: Readonly<Record<string, unknown>>): Promise<CommandResult> => {
  let checked: ReturnType<typeof checkedFolders>
  try {
    checked = checkedFolders(argv["dir"] as string)
  } catch (error) {
    if (error instanceof ProductDirectoryUnreadable) throw new UsageError(error.message)
    throw error
  }
  const { folders, findings } = checked
  const errors = findings.filter((finding) => finding.severity === "error")
  const warnings = findings.filter((finding) => finding.severity === "warning")
  const exitCode = errors.length > 0 ? EXIT_INVALID : EXIT_OK
  if (argv["json"] === true) {
    const names = folders.map(({ folder }) => folder)
    return { stdout: json({ folders: names, errors, warnings }), stderr: "", exitCode }
  }
  const summary = `${count(folders.length, "product folder")} checked: ${count(errors.length, "error")}, ${count(warnings.length, "warning")}`
  const lines = [...errors, ...warnings].map(findingLine)
  return { stdout: `${[...lines, summary].join("\n")}\n`, stderr: "", exitCode }
}
