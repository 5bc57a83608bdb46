/**
 * The DocumentRenderer port as PDF (PdfLayout.ts, with pdfkit). Documents are laid out in a thread of their own
 * (PdfWorker.ts), started with the first document: the service's thread goes on reading and answering every
 * other request meanwhile, and pdfkit, fontkit and the fonts (~10 MB) are never loaded by an instance that
 * prints nothing. Documents that carry a `cacheKey` (an IPID of one tariff version, the privacy policy) are
 * rendered once and kept.
 * @module
 */
import { DocumentRenderer } from "@kasko/core"
import { Effect, Layer } from "effect"
import { Worker } from "node:worker_threads"
import type { LayoutAnswer, LayoutRequest } from "./PdfWorker.js"

type Document = DocumentRenderer.PrintedDocument
type Rendered = DocumentRenderer.RenderedDocument

/** The media type of every document this renderer prints, as the answers' `Content-Type`. */
export const PDF_MEDIA_TYPE = "application/pdf"

interface Waiting {
  readonly resolve: (bytes: Uint8Array) => void
  readonly reject: (error: Error) => void
}

/** The layout thread, started with the first document; again after one that stopped. */
const layoutThread = (() => {
  let thread: Worker | undefined
  let nextId = 0
  const awaited = new Map<number, Waiting>()
  const failAll = (error: Error) => {
    thread = undefined
    for (const { reject } of awaited.values()) reject(error)
    awaited.clear()
  }
  const started = (): Worker => {
    if (thread !== undefined) return thread
    const made = new Worker(new URL("./PdfWorker.js", import.meta.url))
    made.on("message", (answer: LayoutAnswer) => {
      const waiting = awaited.get(answer.id)
      if (waiting === undefined) return
      awaited.delete(answer.id)
      // the thread holds the process open only while a document is being laid out
      if (awaited.size === 0) made.unref()
      if ("bytes" in answer) waiting.resolve(answer.bytes)
      else waiting.reject(new Error(`the document could not be laid out: ${answer.error}`))
    })
    made.on("error", failAll)
    made.on("exit", (code) => {
      if (thread === made) failAll(new Error(`the document layout thread stopped (exit code ${code})`))
    })
    thread = made
    return made
  }
  return (document: Document): Promise<Uint8Array> =>
    new Promise((resolve, reject) => {
      const id = nextId++
      const worker = started()
      awaited.set(id, { resolve, reject })
      worker.ref()
      worker.postMessage({ id, document } satisfies LayoutRequest)
    })
})()

/** The document as PDF bytes, laid out off the caller's thread: the same document (its `dated` included) gives the same bytes. */
export const renderPdf = (document: Document): Promise<Uint8Array> => layoutThread(document)

/** How the PDF renderer is set up: how many documents rendered once it keeps. */
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
