/**
 * What `kasko products check` does: reads each product folder's JSON files, checks them (`ProductCheck` of
 * `@kasko/core/actuarial`, pure) and prints every finding as `file: path: message`, errors first, then a summary.
 */
import { ProductCheck } from "@kasko/core/actuarial"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { basename, join, resolve, sep } from "node:path"
import { type CommandResult, EXIT_INVALID, EXIT_OK, json, UsageError } from "./CommandResult.js"

type Finding = ProductCheck.ProductFinding

const isHidden = (path: string) => path.split(sep).some((segment) => segment.startsWith("."))

/** The product folders DIR names: itself when it holds a product document, else each folder in it. */
const productFoldersAt = (directory: string): Array<string> => {
  let entries: Array<string>
  try {
    if (!statSync(directory).isDirectory()) throw new Error("not a folder")
    if (existsSync(join(directory, ProductCheck.PRODUCT_FILE))) return [resolve(directory)]
    entries = readdirSync(directory)
  } catch (error) {
    throw new UsageError(`cannot read ${directory}: ${(error as Error).message}`)
  }
  const folders = entries
    .filter((entry) => !isHidden(entry) && statSync(join(directory, entry)).isDirectory())
    .sort()
    .map((entry) => resolve(directory, entry))
  if (folders.length === 0)
    throw new UsageError(
      `${directory} holds no product folder: a folder with ${ProductCheck.PRODUCT_FILE}, or folders of them`
    )
  return folders
}

/** A product folder's JSON files (hidden ones left out) by their path in it, with `/` between folders. */
const jsonFilesIn = (folder: string): Map<string, string> =>
  new Map(
    (readdirSync(folder, { recursive: true, encoding: "utf8" }) as Array<string>)
      .filter((entry) => entry.endsWith(".json") && !isHidden(entry) && statSync(join(folder, entry)).isFile())
      .sort()
      .map((entry) => [entry.split(sep).join("/"), readFileSync(join(folder, entry), "utf8")])
  )

/** `file: path: message`, the path left out for the whole file, the line and column given for the text's own mistakes. */
const findingLine = (finding: Finding): string => {
  const at = finding.line === undefined ? undefined : `line ${finding.line}, column ${finding.column}`
  const where = at === undefined ? finding.path : finding.path === "" ? at : `${finding.path} (${at})`
  return `${finding.severity.padEnd(8)}${finding.file}: ${where === "" ? "" : `${where}: `}${finding.message}`
}

const count = (number: number, noun: string) => `${number} ${noun}${number === 1 ? "" : "s"}`

export const checkProducts = async (argv: Readonly<Record<string, unknown>>): Promise<CommandResult> => {
  const folders = productFoldersAt(argv["dir"] as string)
  const findings = ProductCheck.checkProductFolders(
    folders.map((folder) => ({ folder: basename(folder), files: jsonFilesIn(folder) }))
  )
  const errors = findings.filter((finding) => finding.severity === "error")
  const warnings = findings.filter((finding) => finding.severity === "warning")
  const exitCode = errors.length > 0 ? EXIT_INVALID : EXIT_OK
  if (argv["json"] === true) {
    const names = folders.map((folder) => basename(folder))
    return { stdout: json({ folders: names, errors, warnings }), stderr: "", exitCode }
  }
  const summary = `${count(folders.length, "product folder")} checked: ${count(errors.length, "error")}, ${count(warnings.length, "warning")}`
  const lines = [...errors, ...warnings].map(findingLine)
  return { stdout: `${[...lines, summary].join("\n")}\n`, stderr: "", exitCode }
}
