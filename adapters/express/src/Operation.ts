/**
 * What one operation of the API is: its method and path, its documentation,
 * its scope, and the program that answers it — the row type of the
 * operation table (`Operations.ts`), kept apart so that the tables of each
 * resource can be written in modules of their own.
 */
import type { Authentication, CoreError } from "@kasko/core"
import { QuoteLifecycle } from "@kasko/core/storage"
import type { Effect, Schema } from "effect"

type Scope = Authentication.Scope

/**
 * The annotation of a schema whose document entry is written by hand: Effect
 * documents a Struct of no fields as "anything but null", where the answer is
 * exactly `{}`.
 */
export const OPEN_API_SCHEMA = "openApiSchema"

/** An answer already encoded as JSON text (what a store kept): written as it is, not encoded again. */
export class EncodedJson {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/**
 * A document answered as it is (a PDF), not as JSON: its bytes and media type, the name it is saved under, and —
 * for one that stays the same until a new version of it (an IPID, per tariff version) — that version, which the
 * answer carries as its ETag.
 */
export class DocumentAnswer {
  readonly mediaType: string
  readonly bytes: Uint8Array
  readonly fileName: string
  readonly version: string | undefined
  constructor(
    document: { readonly mediaType: string; readonly bytes: Uint8Array },
    fileName: string,
    version?: string
  ) {
    this.mediaType = document.mediaType
    this.bytes = document.bytes
    this.fileName = fileName
    this.version = version
  }
}

/** The answers of an operation that answers a document (a PDF) instead of JSON. */
export interface DocumentResponse {
  readonly mediaType: string
  /**
   * Public and the same until it changes (an IPID): cacheable for `maxAgeSeconds`, with an ETag a client
   * revalidates with If-None-Match (304). Otherwise a private document (a quote's): `noStore`.
   */
  readonly maxAgeSeconds?: number
}

/** `text` when there is one, written as it is; else what `encode` answers. */
export const encodedAs = (text: string | undefined, encode: () => unknown): unknown =>
  text === undefined ? encode() : new EncodedJson(text)

/** The value encoded, or the JSON text a store kept of it (`QuoteLifecycle.jsonTextOf`). */
export const encodedOnce = <A extends object>(value: A, encode: (value: A) => unknown): unknown =>
  encodedAs(QuoteLifecycle.jsonTextOf(value), () => encode(value))

export interface OperationRequest {
  readonly params: Readonly<Record<string, string>>
  readonly body: unknown
  /** The partner the request acts for, once authenticated ("" for public operations). */
  readonly partnerId: string
  /** The request's Idempotency-Key and the fingerprint of its body, when it sent one. */
  readonly idempotency: { readonly key: string; readonly fingerprint: string } | undefined
}

export interface PathParameter {
  readonly name: string
  readonly description: string
  readonly schema: object
  /** A value that works (the document's example, and Try it out's default). */
  readonly example: string
}

/** A documented answer: what a working request is answered with. */
export interface AnswerExample {
  readonly name: string
  readonly summary: string
  readonly value: unknown
}

/** An operation whose program needs the services `R`. */
export interface OperationOf<R> {
  readonly operationId: string
  readonly method: "get" | "post" | "delete"
  /** OpenAPI path template, e.g. `/insurance/car/quotes/{quote_id}`. */
  readonly path: string
  readonly tag: string
  readonly summary: string
  readonly description: string
  /** Absent for public operations (health, readiness). */
  readonly scope?: Scope
  /** Its path's parameters, documented (none when absent). */
  readonly pathParameters?: ReadonlyArray<PathParameter>
  /** The JSON body the operation takes, when it takes one. */
  readonly requestBody?: Schema.Top
  /** A body the operation answers 200 to (documented, and sent by the document's own test). */
  readonly requestExample?: unknown
  /** Served at the service's root even when the partner API has a base path (probes). */
  readonly servedAtRoot?: true
  /** Answers a document of this media type (the handler's `DocumentAnswer`), not JSON: `responses` are then none. */
  readonly document?: DocumentResponse
  /**
   * A public operation counted against the client's address under the per-minute limit a subscription key has
   * (a credentialed operation is counted against its key). Probes are not counted.
   */
  readonly countedByAddress?: true
  /** The 200 body, as one schema or the alternatives of a `oneOf`. */
  readonly responses: ReadonlyArray<Schema.Top>
  /** The property whose one value tells the alternatives of `responses` apart (the `oneOf`'s discriminator). */
  readonly discriminator?: string
  readonly responseDescription: string
  /** What the 200 answers look like, one per response schema. */
  readonly responseExamples: ReadonlyArray<AnswerExample>
  /** Error statuses the operation answers beyond those every operation may (404 for unknown paths, 500, …). */
  readonly errorStatuses?: ReadonlyArray<number>
  /**
   * Prints a document on every request (a quote's, ~7 ms on the event loop): counted against the key's document
   * limit besides its request limit, and printed in turn with the others (`PrintingQueue.ts`).
   */
  readonly printsDocument?: true
  /** Quote answers must not be cached anywhere (`Cache-Control: no-store`). */
  readonly noStore?: true
  /** The operation honours an `Idempotency-Key` header. */
  readonly idempotent?: true
  /** Runs the operation; answers the 200 body, to be encoded (or already encoded: `EncodedJson`; a `DocumentAnswer`). */
  readonly handle: (request: OperationRequest) => Effect.Effect<unknown, CoreError, R>
}
