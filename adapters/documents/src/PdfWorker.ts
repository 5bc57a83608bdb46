/**
 * The thread documents are laid out in (PdfDocuments.ts starts it with the first document): pdfkit lays a
 * document out synchronously, ~7 ms a quote's document on an idle machine, and on the service's thread every
 * other request waited for it. Each message is a document and its number; the answer is its bytes or the error.
 */
import type { DocumentRenderer } from "@kasko/core"
import { parentPort } from "node:worker_threads"
import { renderPdf } from "./PdfLayout.js"

/** What the service asks: a document to lay out, and the number its answer carries. */
export interface LayoutRequest {
  readonly id: number
  readonly document: DocumentRenderer.PrintedDocument
}

/** What the thread answers: the document's bytes, or why there are none. */
export type LayoutAnswer =
  | { readonly id: number; readonly bytes: Uint8Array }
  | { readonly id: number; readonly error: string }

parentPort?.on("message", ({ id, document }: LayoutRequest) => {
  renderPdf(document).then(
    // copied, not transferred: Node's buffers from its pool cannot be (a document is ~50 kB, copied in µs)
    (bytes) => parentPort?.postMessage({ id, bytes } satisfies LayoutAnswer),
    (error: unknown) =>
      parentPort?.postMessage({
        id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error)
      } satisfies LayoutAnswer)
  )
})
