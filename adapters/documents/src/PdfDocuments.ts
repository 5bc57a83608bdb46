/**
 * The DocumentRenderer port as PDF (PdfLayout.ts, with pdfkit). Documents that carry a `cacheKey` (an IPID of
 * one tariff version, the privacy policy) are rendered once and kept. pdfkit, fontkit and the fonts are loaded
 * with the first document, not with the service: most instances print few documents, and they weigh ~10 MB.
 */
import { DocumentRenderer } from "@kasko/core"
import { Effect, Layer } from "effect"

type Document = DocumentRenderer.PrintedDocument
type Rendered = DocumentRenderer.RenderedDocument

export const PDF_MEDIA_TYPE = "application/pdf"

/** The document as PDF bytes: the same document (its `dated` included) gives the same bytes. */
export const renderPdf = async (document: Document): Promise<Uint8Array> =>
  (await import("./PdfLayout.js")).renderPdf(document)

export interface PdfDocumentsOptions {
  /** How many documents with a `cacheKey` are kept (the IPIDs of every product, variant and tariff version). */
  readonly keep?: number
}

/**
 * The DocumentRenderer as PDF. Documents with a `cacheKey` are rendered once and kept, up to `keep` of them
 * (the oldest let go first).
 */
export const layer = (options: PdfDocumentsOptions = {}): Layer.Layer<DocumentRenderer.DocumentRenderer> =>
  Layer.sync(DocumentRenderer.DocumentRenderer, () => {
    const keep = options.keep ?? 64
    const kept = new Map<string, Promise<Uint8Array>>()
    const bytesOf = (document: Document): Promise<Uint8Array> => {
      const key = document.cacheKey
      if (key === undefined) return renderPdf(document)
      const known = kept.get(key)
      if (known !== undefined) return known
      const rendering = renderPdf(document)
      kept.set(key, rendering)
      rendering.catch(() => kept.delete(key))
      if (kept.size > keep) kept.delete(kept.keys().next().value!)
      return rendering
    }
    return {
      render: (document: Document) =>
        Effect.map(
          Effect.promise(() => bytesOf(document)),
          (bytes): Rendered => ({ mediaType: PDF_MEDIA_TYPE, bytes })
        )
    }
  })
