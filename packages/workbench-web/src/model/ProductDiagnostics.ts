/**
 * What the product editor underlines: the folder checker's findings on the edited document (`kasko products
 * check`'s, with the edited text in place of the folder's `product.json`), each at the JSON path it names
 * (`parameters[2].options[1].id`) — or at its line and column, for what is wrong in the text itself (a member
 * written twice). The findings on the folder's other files are listed beside the editor, not underlined.
 */
import type { ProductCheck } from "@kasko/core/actuarial"
import type { Tree } from "@lezer/common"
import { type JsonPath, locate, topOfDocument } from "./JsonSyntax.js"

export interface ProductDiagnostic {
  readonly from: number
  readonly to: number
  readonly severity: "error" | "warning"
  readonly message: string
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * A finding's path (`vehicle_codes.type.codes.varevogn`, `parameters[2].options[1]`) as steps, read against the
 * document it is about: a member's name may itself hold a dot (an option's id), so the longest member of the value
 * that the path goes on with is the step; a member the document lacks (one "is missing") is read up to the next
 * dot or bracket.
 */
export const jsonPathOf = (path: string, document: unknown): JsonPath => {
  const steps: Array<string | number> = []
  let rest = path
  let value = document
  while (rest !== "") {
    const index = /^\[(\d+)\]/.exec(rest)
    if (index !== null) {
      const position = Number(index[1])
      steps.push(position)
      value = Array.isArray(value) ? value[position] : undefined
      rest = rest.slice(index[0].length)
      continue
    }
    if (steps.length > 0 && rest.startsWith(".")) rest = rest.slice(1)
    const members = isRecord(value)
      ? Object.keys(value)
          .filter((name) => name !== "" && rest.startsWith(name) && /^(?:$|[.[])/.test(rest.slice(name.length)))
          .sort((a, b) => b.length - a.length)
      : []
    const name = members[0] ?? /^[^.[]*/.exec(rest)![0]
    if (name === "") break
    steps.push(name)
    value = isRecord(value) ? value[name] : undefined
    rest = rest.slice(name.length)
  }
  return steps
}

/** The offset of a 1-based line and column in the text. */
const offsetOf = (doc: string, line: number, column: number): number => {
  let offset = 0
  for (let current = 1; current < line; current++) {
    const end = doc.indexOf("\n", offset)
    if (end < 0) return doc.length
    offset = end + 1
  }
  return Math.min(doc.length, offset + column - 1)
}

/** Where a finding is shown: at its line and column when it has them, else at its path. */
const placeOf = (
  tree: Tree,
  doc: string,
  document: unknown,
  finding: ProductCheck.ProductFinding
): { from: number; to: number } => {
  if (finding.line !== undefined && finding.column !== undefined) {
    const from = offsetOf(doc, finding.line, finding.column)
    // the token that starts there, a member's name written twice say
    const token = tree.resolveInner(from, 1)
    return { from, to: token.from === from && token.to > from ? token.to : Math.min(doc.length, from + 1) }
  }
  if (finding.path === "") return topOfDocument(doc)
  // an unknown member is marked at its name, not at its whole value
  return locate(tree, doc, jsonPathOf(finding.path, document), finding.message.startsWith("is not a known member"))
}

/** The findings on the edited document (`file`: its path as the checker names it), placed in its text. */
export const productDiagnostics = (
  tree: Tree,
  doc: string,
  file: string,
  findings: ReadonlyArray<ProductCheck.ProductFinding>
): Array<ProductDiagnostic> => {
  let document: unknown
  try {
    document = JSON.parse(doc)
  } catch {
    document = undefined
  }
  return findings
    .filter((finding) => finding.file === file)
    .map((finding) => ({
      ...placeOf(tree, doc, document, finding),
      severity: finding.severity,
      message: finding.path === "" ? finding.message : `${finding.path}: ${finding.message}`
    }))
}
