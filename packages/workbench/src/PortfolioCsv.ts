/**
 * A portfolio as CSV: a header naming the product parameters (blank cells: not
 * sent) and optionally policy_id, product_name, feature, weight (or exposure)
 * and current_premium; then one case a line. Read a chunk of whole lines at a
 * time — the command's worker threads and the page's web workers each parse the
 * chunks they are given — so no file is ever held whole. Browser-safe.
 */
import { ProductCatalogue } from "@kasko/core/actuarial"
import { csvParseRows } from "d3-dsv"
import type { PortfolioRow } from "./ImpactPricing.js"

/** A file that is not a portfolio, at the line that shows it. */
export class PortfolioFormatError extends Error {
  override readonly name = "PortfolioFormatError"
  constructor(
    readonly line: number,
    /** What is wrong, without the line. */
    readonly problem: string
  ) {
    super(`line ${line}: ${problem}`)
  }
}

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

const QUOTE = 34
const NEWLINE = 10
const RETURN = 13
const COMMA = 44

/** How many line breaks the bytes (UTF-8 text) hold: the lines a chunk spans, quoted line breaks included. */
export const lineBreaks = (bytes: Uint8Array): number => {
  let count = 0
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++
  return count
}

/** What the line of a CR-only line end is told. */
export const LONE_RETURN_PROBLEM = "lines end in CR only; save the file with LF or CRLF line endings"

/** What a scan of a piece of CSV finds. */
export interface CsvScan {
  /** Just after its last row end outside a quoted field (with `first`, its first); 0 when there is none. */
  readonly end: number
  /** Where a quoted field still open at the piece's end opened; -1 when none is. */
  readonly openQuoteAt: number
  /** Where a CR outside a quoted field is followed by something other than LF (a CR-only line end); -1 when none is. */
  readonly loneReturnAt: number
}

const FIELD_START = 0
const UNQUOTED = 1
const QUOTED = 2
const AFTER_QUOTE = 3

/**
 * Scans CSV (`code(i)`: the byte or UTF-16 unit at i) as RFC 4180 and d3-dsv read it: a quote opens a
 * quoted field only at a field's start, so `12"` in an unquoted field is a literal; inside one, `""` is a
 * quote and a lone `"` closes it. `onRowEnd` is told the index just after each row end.
 */
const scanCsv = (
  length: number,
  code: (index: number) => number,
  first: boolean,
  onRowEnd?: (after: number) => void
): CsvScan => {
  let state = FIELD_START
  let end = 0
  let openQuoteAt = -1
  let loneReturnAt = -1
  for (let index = 0; index < length; index++) {
    const unit = code(index)
    if (state === QUOTED) {
      if (unit === QUOTE) state = AFTER_QUOTE
      continue
    }
    if (unit === NEWLINE) {
      state = FIELD_START
      end = index + 1
      onRowEnd?.(end)
      if (first) break
    } else if (unit === RETURN) {
      if (index + 1 < length && code(index + 1) !== NEWLINE && loneReturnAt === -1) loneReturnAt = index
      state = UNQUOTED
    } else if (unit === QUOTE && state === FIELD_START) {
      state = QUOTED
      openQuoteAt = index
    } else if (unit === QUOTE && state === AFTER_QUOTE) state = QUOTED
    else if (unit === COMMA || state === AFTER_QUOTE) state = FIELD_START
    else state = UNQUOTED
  }
  return { end, openQuoteAt: state === QUOTED ? openQuoteAt : -1, loneReturnAt }
}

/** Where a CR not followed by LF lies in bytes that hold no quote, -1 when none does. */
const loneReturnOf = (bytes: Uint8Array): number => {
  for (let at = bytes.indexOf(RETURN); at !== -1; at = bytes.indexOf(RETURN, at + 1))
    if (at + 1 < bytes.length && bytes[at + 1] !== NEWLINE) return at
  return -1
}

/**
 * Scans a piece of a portfolio file's bytes: where its whole rows end (with `first`, its first row),
 * whether a quoted field is left open and where a CR-only line end is. The piece must start outside
 * quotes, as every chunk cut at `end` does.
 */
export const scanPortfolioBytes = (bytes: Uint8Array, first = false): CsvScan => {
  if (bytes.indexOf(QUOTE) === -1) {
    const lastOrFirst = first ? bytes.indexOf(NEWLINE) : bytes.lastIndexOf(NEWLINE)
    return { end: lastOrFirst + 1, openQuoteAt: -1, loneReturnAt: loneReturnOf(bytes) }
  }
  return scanCsv(bytes.length, (index) => bytes[index]!, first)
}

/**
 * Where the whole rows of a piece of a portfolio file end: just after its last line break outside a quoted
 * field (with `first`, its first), 0 when there is none — where to cut the file into chunks for
 * `forEachPortfolioRow`. The piece must start outside quotes, as every chunk cut this way does.
 */
export const wholeRowsEnd = (bytes: Uint8Array, first = false): number => scanPortfolioBytes(bytes, first).end

/**
 * The line each row of a chunk starts on, when quoted fields may hold line breaks; throws a
 * PortfolioFormatError naming the line of a quote left open (a file cut in the middle of a quoted
 * field is malformed) or of a CR-only line end.
 */
const rowLinesOf = (text: string, firstLine: number): Array<number> => {
  const starts = [firstLine]
  const lineAt = (index: number) => {
    let line = firstLine
    for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) line++
    return line
  }
  // row ends come in order: count the line breaks (quoted ones too) up to each once
  let line = firstLine
  let counted = 0
  const scan = scanCsv(
    text.length,
    (index) => text.charCodeAt(index),
    false,
    (after) => {
      for (let at = text.indexOf("\n", counted); at !== -1 && at < after; at = text.indexOf("\n", at + 1)) line++
      counted = after
      if (after < text.length) starts.push(line)
    }
  )
  if (scan.loneReturnAt !== -1) throw new PortfolioFormatError(lineAt(scan.loneReturnAt), LONE_RETURN_PROBLEM)
  if (scan.openQuoteAt !== -1)
    throw new PortfolioFormatError(lineAt(scan.openQuoteAt), "a quoted field is never closed")
  return starts
}

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
): number => {
  const starts = text.includes('"') || text.includes("\r") ? rowLinesOf(text, firstLine) : undefined
  let visited = 0
  csvParseRows(text, (fields, index) => {
    const line = starts === undefined ? firstLine + index : starts[index]!
    if (fields.length === 1 && fields[0]!.trim() === "") return null
    if (fields.length !== columns.fields)
      throw new PortfolioFormatError(
        line,
        `has ${fields.length} field${fields.length === 1 ? "" : "s"}, the header ${columns.fields}`
      )
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
    visited++
    return null
  })
  return visited
}
