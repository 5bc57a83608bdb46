/**
 * A portfolio file as bytes cut into its header and chunks of whole rows, each
 * with the line it starts on: what the command's main thread and the
 * workbench page hand to their workers, so both number lines alike. Cut on
 * bytes at `wholeRowsEnd` (a line break inside a quoted field ends no row),
 * never decoded here. Reads any source of byte blocks — a Node read stream, a
 * browser File's slices — and holds at most a block and a partial row.
 * Browser-safe.
 */
import type { ProductCatalogue } from "@kasko/core/actuarial"
import { LONE_RETURN_PROBLEM, lineBreaks, scanCsvBytes } from "./CsvRows.js"
import { headerFields, PortfolioFormatError, portfolioColumns, type PortfolioColumns } from "./PortfolioCsv.js"

/** The most bytes a header line may take: a longer one is no portfolio's header (or a file that never ends a line). */
export const MAX_HEADER_BYTES = 64 * 1024
/** The most bytes a row may take: a longer one is a stray quote's doing (or a file that never ends a line). */
export const MAX_ROW_BYTES = 1024 * 1024

/** Whole rows of a portfolio, in bytes the chunk owns (so they can be transferred to a worker). */
export interface PortfolioChunk {
  readonly bytes: Uint8Array<ArrayBuffer>
  /** The line of the file the chunk's first row starts on. */
  readonly first_line: number
}

/** A portfolio's header: its columns, how many bytes it takes (its line break included) and how many lines. */
export interface PortfolioHeader {
  readonly columns: PortfolioColumns
  readonly bytes: number
  readonly lines: number
}

/** A copy of the bytes in a buffer of their own (a Node Buffer's `slice` would share its pool). */
const ownCopy = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => {
  const copy = new Uint8Array(bytes.length)
  copy.set(bytes)
  return copy
}

const joined = (first: Uint8Array, second: Uint8Array): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(first.length + second.length)
  bytes.set(first)
  bytes.set(second, first.length)
  return bytes
}

/**
 * The header of a portfolio read from the start of `source` (only as far as its first row's end): its columns,
 * parameters of the catalogue's products (the shipped ones unless given), or a PortfolioFormatError naming line 1
 * for an empty file or a header that is not a portfolio's.
 */
export const portfolioHeader = async (
  source: AsyncIterable<Uint8Array>,
  catalogue?: ProductCatalogue.Catalogue
): Promise<PortfolioHeader> => {
  let read: Uint8Array = new Uint8Array(0)
  let end = 0
  for await (const block of source) {
    read = joined(read, block)
    const scan = scanCsvBytes(read, true)
    end = scan.end
    // a CR-only file is one long line to a reader of LF: refuse it rather than take it all for the header
    if (scan.loneReturnAt !== -1 && (end === 0 || scan.loneReturnAt < end))
      throw new PortfolioFormatError(1, LONE_RETURN_PROBLEM)
    if (end > MAX_HEADER_BYTES || (end === 0 && read.length > MAX_HEADER_BYTES))
      throw new PortfolioFormatError(
        1,
        `the header line runs over ${MAX_HEADER_BYTES / 1024} KiB: a portfolio starts with a header line naming its columns`
      )
    if (end > 0) break
  }
  const bytes = end > 0 ? end : read.length
  if (bytes === 0) throw new PortfolioFormatError(1, "the file is empty: a portfolio starts with its header line")
  const header = read.subarray(0, bytes)
  return {
    columns: portfolioColumns(headerFields(new TextDecoder().decode(header)), catalogue),
    bytes,
    lines: lineBreaks(header) || 1
  }
}

/** Makes a buffer of its own (not a view of a shared pool: its chunks are transferred to workers) of a length. */
export type ByteAllocator = (length: number) => Uint8Array<ArrayBuffer>

const plainBytes: ByteAllocator = (length) => new Uint8Array(length)

/**
 * The rows of `source` (the file after its header) in chunks of whole rows, each as large as the
 * source's blocks give and no larger but for a row the blocks cut; `firstLine` is the line the
 * source starts on. A last row without a line break is a chunk of its own. Each block is copied once,
 * after the partial row before it, into a buffer from `allocate` that the chunk then owns (Node passes
 * `Buffer.allocUnsafeSlow`: a Buffer's native `indexOf` scans several times faster than a Uint8Array's).
 */
export async function* portfolioChunks(
  source: AsyncIterable<Uint8Array>,
  firstLine: number,
  allocate: ByteAllocator = plainBytes
): AsyncGenerator<PortfolioChunk> {
  let line = firstLine
  let carry: Uint8Array = new Uint8Array(0)
  for await (const block of source) {
    const data = allocate(carry.length + block.length)
    data.set(carry)
    data.set(block, carry.length)
    const scan = scanCsvBytes(data)
    const lineOf = (index: number) => line + lineBreaks(data.subarray(0, index))
    if (scan.loneReturnAt !== -1) throw new PortfolioFormatError(lineOf(scan.loneReturnAt), LONE_RETURN_PROBLEM)
    const end = scan.end
    // a row that never ends (a stray quote reads the rest of the file as one field) is refused, not held
    if (data.length - end > MAX_ROW_BYTES) {
      const mega = MAX_ROW_BYTES / 1024 / 1024
      throw scan.openQuoteAt !== -1
        ? new PortfolioFormatError(
            lineOf(scan.openQuoteAt),
            `a quoted field opens here and is not closed within ${mega} MiB: a stray quote?`
          )
        : new PortfolioFormatError(lineOf(end), `the row starting here runs over ${mega} MiB without a line end`)
    }
    if (end === 0) {
      carry = data
      continue
    }
    // counted, and the partial row after them copied out, before the bytes are sent away (transferred, they are gone from here)
    const next = line + lineBreaks(data.subarray(0, end))
    carry = ownCopy(data.subarray(end))
    yield { bytes: new Uint8Array(data.buffer, data.byteOffset, end), first_line: line }
    line = next
  }
  if (carry.length > 0) yield { bytes: ownCopy(carry), first_line: line }
}
