/**
 * Cutting a portfolio's bytes into its header and chunks of whole rows, as the command's main
 * thread and the workbench page both do: whatever blocks the bytes arrive in, the chunks are the
 * file after its header, each ending on a row's end and starting on the line it says.
 */
import { Buffer } from "node:buffer"
import { describe, expect, it } from "vitest"
import { MAX_HEADER_BYTES, MAX_ROW_BYTES, portfolioChunks, portfolioHeader } from "../src/PortfolioChunks.js"
import { forEachPortfolioRow, headerFields, PortfolioFormatError, portfolioColumns } from "../src/PortfolioCsv.js"
import { generatedBook } from "./support.js"

const encoder = new TextEncoder()

/** The bytes in blocks of the sizes given, over and over. */
async function* blocks(bytes: Uint8Array, sizes: ReadonlyArray<number>) {
  let at = 0
  for (let index = 0; at < bytes.length; index++) {
    const size = sizes[index % sizes.length]!
    yield bytes.slice(at, at + size)
    at += size
  }
}

const collect = async (bytes: Uint8Array, sizes: ReadonlyArray<number>, firstLine: number) => {
  const chunks: Array<{ text: string; first_line: number }> = []
  for await (const chunk of portfolioChunks(blocks(bytes, sizes), firstLine))
    chunks.push({ text: new TextDecoder().decode(chunk.bytes), first_line: chunk.first_line })
  return chunks
}

describe("a portfolio cut into chunks of whole rows", () => {
  const book = generatedBook(300, 5)

  it("reads the header's columns and where it ends, from blocks of any size", async () => {
    const bytes = encoder.encode(`${book.header}\n${book.body}`)
    for (const sizes of [[1], [7, 3], [64 * 1024]]) {
      const header = await portfolioHeader(blocks(bytes, sizes))
      expect(header.bytes).toBe(encoder.encode(book.header).length + 1)
      expect(header.lines).toBe(1)
      expect(header.columns.fields).toBe(book.header.split(",").length)
    }
  })

  it("gives back the rows, every chunk ending a row and starting on its line, whatever the blocks", async () => {
    const lines = [...book.lines]
    // quoted fields holding line breaks, one across a block's end
    for (const index of [3, 40, 41, 250]) lines[index] = lines[index]!.replace(/^P(\d+),/, '"P$1\nand\nmore",')
    const body = `${lines.join("\n")}\n`
    const bytes = encoder.encode(body)
    for (const sizes of [[1], [5, 17, 3], [200], [4096], [bytes.length]]) {
      const chunks = await collect(bytes, sizes, 2)
      expect(chunks.map((chunk) => chunk.text).join("")).toBe(body)
      let line = 2
      for (const chunk of chunks) {
        expect(chunk.first_line).toBe(line)
        expect(chunk.text.endsWith("\n")).toBe(true)
        // no row of the chunk starts inside a quoted field: its quotes are balanced
        expect((chunk.text.match(/"/g) ?? []).length % 2).toBe(0)
        line += (chunk.text.match(/\n/g) ?? []).length
      }
      expect(line).toBe(2 + (body.match(/\n/g) ?? []).length)
    }
  })

  it("gives each chunk a buffer of its own, so sending it away (transferred) leaves the next chunks whole", async () => {
    const lines = [...book.lines]
    lines[120] = lines[120]!.replace(/^P(\d+),/, '"P$1\nand more",')
    const body = `${lines.join("\n")}\n`
    const bytes = encoder.encode(body)
    for (const allocate of [undefined, (length: number) => Buffer.allocUnsafeSlow(length) as Uint8Array<ArrayBuffer>]) {
      const texts: Array<string> = []
      const buffers = new Set<ArrayBuffer>()
      for await (const chunk of portfolioChunks(blocks(bytes, [1000, 333]), 2, allocate)) {
        texts.push(new TextDecoder().decode(chunk.bytes))
        expect(buffers.has(chunk.bytes.buffer)).toBe(false)
        buffers.add(chunk.bytes.buffer)
        // as a worker's postMessage does: the buffer is detached here
        structuredClone(chunk.bytes, { transfer: [chunk.bytes.buffer] })
        expect(chunk.bytes.length).toBe(0)
      }
      expect(texts.length).toBeGreaterThan(20)
      expect(texts.join("")).toBe(body)
    }
  })

  it("gives a last row without a line break a chunk of its own", async () => {
    const body = "a,b\nc,d\ne,f"
    const chunks = await collect(encoder.encode(body), [5], 7)
    expect(chunks).toEqual([
      { text: "a,b\n", first_line: 7 },
      { text: "c,d\n", first_line: 8 },
      { text: "e,f", first_line: 9 }
    ])
  })

  it("names line 1 for an empty file, and for a header that is not a portfolio's", async () => {
    await expect(portfolioHeader(blocks(new Uint8Array(0), [10]))).rejects.toThrow(
      new PortfolioFormatError(1, "the file is empty: a portfolio starts with its header line")
    )
    await expect(portfolioHeader(blocks(encoder.encode("policy_id,colour\nP1,red\n"), [4]))).rejects.toThrow(
      /^line 1: column 2 "colour" is neither a product parameter/
    )
  })

  it("refuses a file whose lines end in CR only, naming line 1, rather than read it whole as its header", async () => {
    const crOnly = encoder.encode(`${book.header}\r${book.lines.join("\r")}\r`)
    for (const sizes of [[1], [100], [crOnly.length]])
      await expect(portfolioHeader(blocks(crOnly, sizes))).rejects.toThrow(
        new PortfolioFormatError(1, "lines end in CR only; save the file with LF or CRLF line endings")
      )
    // CRLF is read as before
    const crlf = encoder.encode(`${book.header}\r\n${book.lines.join("\r\n")}\r\n`)
    expect((await portfolioHeader(blocks(crlf, [7]))).columns.fields).toBe(book.header.split(",").length)
  })

  it("names the line of a CR-only line end in the rows, whatever the blocks", async () => {
    const body = `${book.lines.slice(0, 20).join("\n")}\n${book.lines[20]}\r${book.lines.slice(21, 40).join("\n")}\n`
    for (const sizes of [[1], [64], [body.length]])
      await expect(collect(encoder.encode(body), sizes, 2)).rejects.toThrow(
        new PortfolioFormatError(22, "lines end in CR only; save the file with LF or CRLF line endings")
      )
    const columns = portfolioColumns(headerFields(book.header))
    expect(() => forEachPortfolioRow(body, 2, columns, () => {})).toThrow(
      new PortfolioFormatError(22, "lines end in CR only; save the file with LF or CRLF line endings")
    )
  })

  it("refuses a header line over 64 KiB without holding more of the file", async () => {
    let blocksRead = 0
    // a bounded source, so that a reader without the limit ends (and fails) rather than hangs
    async function* endless() {
      for (let block = 0; block < 30; block++) {
        blocksRead++
        yield encoder.encode("policy_id,".repeat(1000))
      }
    }
    await expect(portfolioHeader(endless())).rejects.toThrow(
      new PortfolioFormatError(
        1,
        "the header line runs over 64 KiB: a portfolio starts with a header line naming its columns"
      )
    )
    expect(blocksRead * 10_000).toBeLessThan(MAX_HEADER_BYTES + 20_000)
  })

  it("reads a quote inside an unquoted field as a literal, as RFC 4180 and d3-dsv do", async () => {
    const lines = [...book.lines]
    lines[5] = lines[5]!.replace(/^P(\d+),/, 'P$1 12",')
    lines[9] = lines[9]!.replace(/^P(\d+),/, '"P$1 ""quoted""",')
    const body = `${lines.join("\n")}\n`
    for (const sizes of [[1], [97], [body.length]]) {
      const chunks = await collect(encoder.encode(body), sizes, 2)
      expect(chunks.map((chunk) => chunk.text).join("")).toBe(body)
      const ids: Array<string> = []
      let line = 2
      for (const chunk of chunks) {
        expect(chunk.first_line).toBe(line)
        line += forEachPortfolioRow(
          chunk.text,
          chunk.first_line,
          portfolioColumns(headerFields(book.header)),
          (row) => {
            ids.push(row.policy_id)
            expect(row.line).toBe(ids.length + 1)
          }
        )
      }
      expect(ids).toHaveLength(book.lines.length)
      expect(ids[5]).toMatch(/^P\d+ 12"$/)
      expect(ids[9]).toMatch(/^P\d+ "quoted"$/)
    }
  })

  it("refuses a row over 1 MiB, naming the line its unclosed quote opened on, without holding the file", async () => {
    const lines = [...book.lines]
    lines[7] = lines[7]!.replace(/^P(\d+),/, '"P$1,')
    const head = encoder.encode(`${lines.join("\n")}\n`)
    let bytesRead = 0
    async function* unending() {
      bytesRead += head.length
      yield head
      for (let block = 0; block < 48; block++) {
        const block = encoder.encode("x".repeat(64 * 1024 - 1) + "\n")
        bytesRead += block.length
        yield block
      }
    }
    await expect(collect2(unending())).rejects.toThrow(
      new PortfolioFormatError(9, "a quoted field opens here and is not closed within 1 MiB: a stray quote?")
    )
    expect(bytesRead).toBeLessThan(MAX_ROW_BYTES + head.length + 128 * 1024)
    async function* oneLongRow() {
      yield encoder.encode("a,b\n")
      for (let block = 0; block < 48; block++) yield encoder.encode("y".repeat(64 * 1024))
    }
    await expect(collect2(oneLongRow())).rejects.toThrow(
      new PortfolioFormatError(3, "the row starting here runs over 1 MiB without a line end")
    )
  })
})

const collect2 = async (source: AsyncIterable<Uint8Array>) => {
  const chunks: Array<number> = []
  for await (const chunk of portfolioChunks(source, 2)) chunks.push(chunk.first_line)
  return chunks
}
