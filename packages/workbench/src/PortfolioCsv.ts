/**
 * A portfolio as CSV: a header naming the parameters of a catalogue's products
 * (blank cells: not sent) and optionally policy_id, product_name, feature,
 * weight (or exposure) and current_premium; then one case a line, decoded
 * against its own product when it is priced. Read a chunk of whole lines at a
 * time — the command's worker threads and the page's web workers each parse the
 * chunks they are given — so no file is ever held whole, by the one CSV reader
 * (CsvRows.ts). Browser-safe.
 */
import { ProductCatalogue } from "@kasko/core/actuarial"
import { csvParseRows } from "d3-dsv"
import { CsvFormatError, forEachCsvRow } from "./CsvRows.js"
import type { PortfolioRow } from "./ImpactPricing.js"
import { parameterColumnsOf } from "./ParameterColumns.js"

/** A file that is not a portfolio, at the line that shows it. */
export class PortfolioFormatError extends CsvFormatError {
  override readonly name = "PortfolioFormatError"
}

const portfolioFormatError = (line: number, problem: string) => new PortfolioFormatError(line, problem)

/** The other columns a portfolio may have. */
export const PORTFOLIO_OPTIONAL_COLUMNS = ["policy_id", "product_name", "feature", "weight", "current_premium"] as const
const ALIASES: Readonly<Record<string, string>> = { exposure: "weight" }

/**
 * A catalogue's portfolio parameters: every parameter of its products (`parameterColumnsOf`), and the columns a
 * header must have — the parameters every product requires without a default, without which no row could be
 * priced. A parameter only some products require is a row's to give: a row of such a product without it is rejected.
 */
const portfolioParametersOf = ProductCatalogue.perCatalogue((catalogue) => ({
  columns: parameterColumnsOf(catalogue),
  required: parameterColumnsOf(catalogue).filter((name) =>
    catalogue.products.every((document) =>
      document.parameters.some(
        (parameter) => parameter.name === name && parameter.required && parameter.default === undefined
      )
    )
  )
}))

/** Where each column of a portfolio's header is. */
export interface PortfolioColumns {
  /** How many fields every line has. */
  readonly fields: number
  /** Each parameter column: its index and the parameter's name. */
  readonly parameters: ReadonlyArray<readonly [number, string]>
  readonly policy_id: number | undefined
  readonly product_name: number | undefined
  readonly feature: number | undefined
  readonly weight: number | undefined
  readonly current_premium: number | undefined
}

/**
 * The columns of a header line's fields, for a book of a catalogue's products (the shipped ones unless given):
 * its parameter columns are the parameters of any of its products. Throws a PortfolioFormatError (line 1) for an
 * unknown, doubled or missing column.
 */
export const portfolioColumns = (
  header: ReadonlyArray<string>,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): PortfolioColumns => {
  const parameters = portfolioParametersOf(catalogue)
  const names = header.map((field) => {
    const name = field.trim()
    return ALIASES[name] ?? name
  })
  const known = new Set<string>([...parameters.columns, ...PORTFOLIO_OPTIONAL_COLUMNS])
  names.forEach((name, index) => {
    if (!known.has(name))
      throw new PortfolioFormatError(
        1,
        `column ${index + 1} "${header[index]}" is neither a product parameter (${parameters.columns.join(", ")}) nor one of ${PORTFOLIO_OPTIONAL_COLUMNS.join(", ")}`
      )
    if (names.indexOf(name) !== index) throw new PortfolioFormatError(1, `column "${name}" is named twice`)
  })
  const missing = parameters.required.filter((name) => !names.includes(name))
  if (missing.length > 0)
    throw new PortfolioFormatError(1, `the header lacks the required parameter column(s) ${missing.join(", ")}`)
  const at = (name: string) => (names.includes(name) ? names.indexOf(name) : undefined)
  return {
    fields: names.length,
    parameters: names.flatMap((name, index) => (parameters.columns.includes(name) ? [[index, name] as const] : [])),
    policy_id: at("policy_id"),
    product_name: at("product_name"),
    feature: at("feature"),
    weight: at("weight"),
    current_premium: at("current_premium")
  }
}

/** The fields of a portfolio's header line (the first line of the file, a UTF-8 byte order mark allowed). */
export const headerFields = (firstLine: string): Array<string> =>
  csvParseRows(firstLine.replace(/^\uFEFF/, ""))[0] ?? []

/**
 * Calls `visit` with each case of a chunk of whole lines of a portfolio (after its header),
 * `firstLine` being the chunk's first line in the file; blank lines are skipped. Throws a
 * PortfolioFormatError naming the line of a case with another number of fields than the header's,
 * or of a quoted field never closed. Answers how many cases it visited.
 */
export const forEachPortfolioRow = (
  text: string,
  firstLine: number,
  columns: PortfolioColumns,
  visit: (row: PortfolioRow) => void
): number =>
  forEachCsvRow(text, { firstLine, fields: columns.fields, formatError: portfolioFormatError }, (fields, line) => {
    const parameters: Record<string, string> = {}
    for (const [column, name] of columns.parameters) {
      const value = fields[column]!.trim()
      if (value !== "") parameters[name] = value
    }
    const cell = (column: number | undefined) => (column === undefined ? "" : fields[column]!.trim())
    visit({
      line,
      policy_id: cell(columns.policy_id),
      product_name: columns.product_name === undefined ? undefined : cell(columns.product_name),
      feature: columns.feature === undefined ? undefined : cell(columns.feature),
      parameters,
      weight: cell(columns.weight),
      current_premium: cell(columns.current_premium)
    })
  })
