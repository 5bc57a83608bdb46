/**
 * kasko's one CSV reader, for portfolios and golden tables alike: d3-dsv
 * parses the rows (RFC 4180; the fastest of the maintained parsers on a
 * portfolio, see the package README), and this module adds what it lacks —
 * the line each row starts on (quoted fields may hold line breaks), a refusal
 * naming the line of a malformed file (a quote never closed, CR-only line
 * ends, a row of another number of fields than the header's), and where to
 * cut a file's bytes into chunks of whole rows, so workers parse a book a
 * chunk at a time and never hold it whole. Browser-safe.
 */
import { csvParseRows } from "d3-dsv"

/** A CSV file that cannot be read, at the line that shows it. */
export class CsvFormatError extends Error {
  override readonly name: string = "CsvFormatError"
  constructor(
    readonly line: number,
    /** What is wrong, without the line. */
    readonly problem: string
  ) {
    super(`line ${line}: ${problem}`)
  }
}

/** Makes the error a malformed file is refused with (a `PortfolioFormatError` for a portfolio). */
export type FormatError = (line: number, problem: string) => Error

/** What a row of another number of fields than the header's is told. */
export const fieldCountProblem = (found: number, expected: number): string =>
  `has ${found} field${found === 1 ? "" : "s"}, the header ${expected}`

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
 * Scans a piece of a CSV file's bytes (a portfolio's): where its whole rows end (with `first`, its first row),
 * whether a quoted field is left open and where a CR-only line end is. The piece must start outside
 * quotes, as every chunk cut at `end` does.
 */
export const scanCsvBytes = (bytes: Uint8Array, first = false): CsvScan => {
  if (bytes.indexOf(QUOTE) === -1) {
    const lastOrFirst = first ? bytes.indexOf(NEWLINE) : bytes.lastIndexOf(NEWLINE)
    return { end: lastOrFirst + 1, openQuoteAt: -1, loneReturnAt: loneReturnOf(bytes) }
  }
  return scanCsv(bytes.length, (index) => bytes[index]!, first)
}

/**
 * Where the whole rows of a piece of a CSV file end: just after its last line break outside a quoted
 * field (with `first`, its first), 0 when there is none — where to cut the file into chunks for
 * `forEachPortfolioRow`. The piece must start outside quotes, as every chunk cut this way does.
 */
export const wholeRowsEnd = (bytes: Uint8Array, first = false): number => scanCsvBytes(bytes, first).end

/**
 * The line each row of a chunk starts on, when quoted fields may hold line breaks; throws the format
 * error naming the line of a quote left open (a file cut in the middle of a quoted field is
 * malformed) or of a CR-only line end.
 */
const rowLinesOf = (text: string, firstLine: number, formatError: FormatError): Array<number> => {
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
  if (scan.loneReturnAt !== -1) throw formatError(lineAt(scan.loneReturnAt), LONE_RETURN_PROBLEM)
  if (scan.openQuoteAt !== -1) throw formatError(lineAt(scan.openQuoteAt), "a quoted field is never closed")
  return starts
}

/** How a text of CSV is read. */
export interface CsvReading {
  /** The text's first line in its file: 1 for a whole file, a chunk's own line for a chunk. */
  readonly firstLine: number
  /** How many fields every row has (the header's); undefined: any number. */
  readonly fields?: number | undefined
  readonly formatError: FormatError
}

/**
 * Calls `visit` with the fields of each row of CSV text and the line the row starts on; blank lines
 * are skipped. Throws the reading's format error naming the line of a row with another number of
 * fields than the reading's, of a quoted field never closed, or of a CR-only line end. Answers how
 * many rows it visited.
 */
export const forEachCsvRow = (
  text: string,
  reading: CsvReading,
  visit: (fields: ReadonlyArray<string>, line: number) => void
): number => {
  const { firstLine, fields: expected, formatError } = reading
  const starts = text.includes('"') || text.includes("\r") ? rowLinesOf(text, firstLine, formatError) : undefined
  let visited = 0
  csvParseRows(text, (fields, index) => {
    const line = starts === undefined ? firstLine + index : starts[index]!
    if (fields.length === 1 && fields[0]!.trim() === "") return null
    if (expected !== undefined && fields.length !== expected)
      throw formatError(line, fieldCountProblem(fields.length, expected))
    visit(fields, line)
    visited++
    return null
  })
  return visited
}
