/**
 * The port that prints documents: the core writes what a document says (`PrintedDocument`: the IPID, a quote's
 * document, the privacy policy); a renderer lays it out and answers its bytes. `@kasko/documents` renders PDF.
 * @module
 */
import { Context, type Effect } from "effect"
import type { PrintedDocument } from "../documents/PrintedDocument.js"

export type { PrintedDocument } from "../documents/PrintedDocument.js"

/** A rendered document: its bytes and their media type. */
export interface RenderedDocument {
  readonly mediaType: string
  readonly bytes: Uint8Array
}

/**
 * The DocumentRenderer port: prints a document the core wrote (an IPID, a quote's document, the privacy policy)
 * as bytes of a media type. `@kasko/documents` provides it as PDF.
 */
export class DocumentRenderer extends Context.Service<
  DocumentRenderer,
  {
    /**
     * The document's bytes. A document with a `cacheKey` is the same every time it carries it: the renderer may
     * keep its bytes and answer them again without rendering.
     */
    readonly render: (document: PrintedDocument) => Effect.Effect<RenderedDocument>
  }
>()("@kasko/core/DocumentRenderer") {}
