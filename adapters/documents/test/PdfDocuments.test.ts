import { DocumentRenderer } from "@kasko/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { PdfDocuments } from "@kasko/documents"

type PrintedDocument = DocumentRenderer.PrintedDocument

const DOCUMENT: PrintedDocument = {
  language: "da-DK",
  title: "Prøvedokument",
  subtitle: "Æbler, øl og ål",
  sections: [
    {
      heading: "Afsnit",
      blocks: [
        { kind: "paragraph", text: "Påkørsel af dyr og førerulykke." },
        { kind: "list", items: ["én", "to"] },
        { kind: "facts", rows: [["Tilbudsnummer", "4000 0012 3456 7897"]] },
        {
          kind: "table",
          columns: [{ title: "Dækning" }, { title: "Selvrisiko", figures: true }],
          rows: [["Kasko", "5.000 kr."]]
        }
      ]
    }
  ],
  footer: "Kasko Forsikring A/S",
  author: "Kasko Forsikring A/S",
  dated: Date.parse("2026-03-02T09:00:00.000Z")
}

const render = (document: PrintedDocument, renderer = PdfDocuments.layer()) =>
  Effect.runPromise(
    DocumentRenderer.DocumentRenderer.use((service) => service.render(document)).pipe(Effect.provide(renderer))
  )

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1")

describe("PDF documents", () => {
  it("are PDF, with DejaVu Sans embedded as a subset rather than a standard font", async () => {
    const rendered = await render(DOCUMENT)
    expect(rendered.mediaType).toBe("application/pdf")
    const text = latin1(rendered.bytes)
    expect(text.startsWith("%PDF-1.7")).toBe(true)
    expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/)
    expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans-Bold\b/)
    expect(text).toContain("/FontFile2")
    expect(text).not.toContain("/Helvetica")
  })

  it("give the same bytes for the same document, in another renderer too", async () => {
    const first = await render(DOCUMENT)
    const second = await render(DOCUMENT, PdfDocuments.layer())
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true)
    const later = await render({ ...DOCUMENT, dated: DOCUMENT.dated + 1_000 })
    expect(Buffer.from(later.bytes).equals(Buffer.from(first.bytes))).toBe(false)
  })

  it("render a document with a cache key once, and every other document each time", async () => {
    const renderer = PdfDocuments.layer()
    const kept = { ...DOCUMENT, cacheKey: "test/kept" }
    const runs = await Effect.runPromise(
      DocumentRenderer.DocumentRenderer.use((service) =>
        Effect.all([service.render(kept), service.render(kept), service.render(DOCUMENT), service.render(DOCUMENT)])
      ).pipe(Effect.provide(renderer))
    )
    expect(runs[1].bytes).toBe(runs[0].bytes)
    expect(runs[3].bytes).not.toBe(runs[2].bytes)
    expect(Buffer.from(runs[3].bytes).equals(Buffer.from(runs[2].bytes))).toBe(true)
  })

  it("keep at most `keep` documents, letting the oldest go", async () => {
    const bytes = await Effect.runPromise(
      DocumentRenderer.DocumentRenderer.use((service) =>
        Effect.gen(function* () {
          const first = yield* service.render({ ...DOCUMENT, cacheKey: "a" })
          yield* service.render({ ...DOCUMENT, cacheKey: "b" })
          yield* service.render({ ...DOCUMENT, cacheKey: "c" })
          return { first, again: yield* service.render({ ...DOCUMENT, cacheKey: "a" }) }
        })
      ).pipe(Effect.provide(PdfDocuments.layer({ keep: 2 })))
    )
    expect(bytes.again.bytes).not.toBe(bytes.first.bytes)
  })

  it("break a long table over pages, with a footer and page number on each", async () => {
    const rows = Array.from({ length: 120 }, (_, index) => [`Linje ${index + 1}`, `${index + 1}.000 kr.`])
    const long: PrintedDocument = {
      ...DOCUMENT,
      sections: [
        { heading: "Mange linjer", blocks: [{ kind: "table", columns: [{ title: "A" }, { title: "B" }], rows }] }
      ]
    }
    const text = latin1((await render(long)).bytes)
    const pages = Number(/\/Type \/Pages\s*\/Count (\d+)/.exec(text)?.[1])
    expect(pages).toBeGreaterThan(1)
  })
})
