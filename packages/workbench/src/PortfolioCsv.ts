/**
 * A portfolio as CSV: a header naming the product parameters (blank cells: not
 * sent) and optionally policy_id, product_name, feature, weight (or exposure)
 * and current_premium; then one case a line. Read a chunk of whole lines at a
 * time — the command's worker threads and the page's web workers each parse the
 * chunks they are given — so no file is ever held whole, by the one CSV reader
 * (CsvRows.ts). Browser-safe.
 */
import { ProductCatalogue } from "@kasko/core/actuarial"
import { csvParseRows } from "d3-dsv"
import { CsvFormatError, forEachCsvRow } from "./CsvRows.js"
import type { PortfolioRow } from "./ImpactPricing.js"

/** A file that is not a portfolio, at the line that shows it. */
export class PortfolioFormatError extends CsvFormatError {
  override readonly name = "PortfolioFormatError"
}

const portfolioFormatError = (line: number, problem: string) => new PortfolioFormatError(line, problem)

const PARAMETERS = ProductCatalogue.productDefinition("insurance-car-leasing")!.parameters
/** The product parameters, in the catalogue's order (both products define the same). */
export const PORTFOLIO_PARAMETER_COLUMNS: ReadonlyArray<string> = PARAMETERS.map((parameter) => parameter.name)
/** The columns a portfolio must have: the required parameters without a default. */
const REQUIRED_COLUMNS = PARAMETERS.filter((parameter) => parameter.required && parameter.default === undefined).map(
  (parameter) => parameter.name
)
/** The other columns a portfolio may have. */
export const PORTFOLIO_OPTIONAL_COLUMNS = ["policy_id", "product_name", "feature", "weight", "current_premium"] as const
const ALIASES: Readonly<Record<string, string>> = { exposure: "weight" }

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

/** The columns of a header line's fields; throws a PortfolioFormatError (line 1) for an unknown, doubled or missing column. */
export const portfolioColumns = (header: ReadonlyArray<string>): PortfolioColumns => {
  const names = header.map((field) => {
    const name = field.trim()
    return ALIASES[name] ?? name
  })
  const known = new Set<string>([...PORTFOLIO_PARAMETER_COLUMNS, ...PORTFOLIO_OPTIONAL_COLUMNS])
  names.forEach((name, index) => {
    if (!known.has(name))
      throw new PortfolioFormatError(
        1,
        `column ${index + 1} "${header[index]}" is neither a product parameter (${PORTFOLIO_PARAMETER_COLUMNS.join(", ")}) nor one of ${PORTFOLIO_OPTIONAL_COLUMNS.join(", ")}`
      )
    if (names.indexOf(name) !== index) throw new PortfolioFormatError(1, `column "${name}" is named twice`)
  })
  const missing = REQUIRED_COLUMNS.filter((name) => !names.includes(name))
  if (missing.length > 0)
    throw new PortfolioFormatError(1, `the header lacks the required parameter column(s) ${missing.join(", ")}`)
  const at = (name: string) => (names.includes(name) ? names.indexOf(name) : undefined)
  return {
    fields: names.length,
    parameters: names.flatMap((name, index) =>
      PORTFOLIO_PARAMETER_COLUMNS.includes(name) ? [[index, name] as const] : []
    ),
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
