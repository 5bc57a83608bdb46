/**
 * Cutting a portfolio's bytes into its header and chunks of whole rows, as the command's main
 * thread and the workbench page both do: whatever blocks the bytes arrive in, the chunks are the
 * file after its header, each ending on a row's end and starting on the line it says.
 */
import { describe, expect, it } from "vitest"
import { portfolioChunks, portfolioHeader } from "../src/PortfolioChunks.js"
import { PortfolioFormatError } from "../src/PortfolioCsv.js"
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
})
