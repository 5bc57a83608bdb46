/**
 * What one operation of the API is: its method and path, its documentation,
 * its scope, and the program that answers it — the row type of the
 * operation table (`Operations.ts`), kept apart so that the tables of each
 * resource can be written in modules of their own.
 */
import type { Authentication, CoreError } from "@kasko/core"
import { type Effect, Schema } from "effect"
import type { IncomingHttpHeaders } from "node:http"

type Scope = Authentication.Scope

/**
 * The annotation of a schema whose document entry is written by hand: Effect
 * documents a Struct of no fields as "anything but null", where the answer is
 * exactly `{}`.
 */
export const OPEN_API_SCHEMA = "openApiSchema"

/** An empty JSON object: what activation (spec §3) and the webhooks' removals and replays answer. */
export const EmptyAnswer = Schema.Struct({}).annotate({
  identifier: "EmptyAnswer",
  [OPEN_API_SCHEMA]: {
    type: "object",
    description: "An empty JSON object",
    properties: {},
    additionalProperties: false
  }
})

/** A JSON answer: the value, the Schema that encodes it where the transport answers, and headers of its own. */
export interface JsonReply {
  readonly _tag: "JsonReply"
  readonly schema: Schema.Top
  readonly value: unknown
  readonly headers?: Readonly<Record<string, string>>
}

/** Answers a value as JSON, encoded by `schema`. */
export const replyWith =
  <S extends Schema.Top>(schema: S, headers?: Readonly<Record<string, string>>) =>
  (value: S["Type"]): JsonReply =>
    headers === undefined ? { _tag: "JsonReply", schema, value } : { _tag: "JsonReply", schema, value, headers }

/**
 * A document answered as it is (a PDF), not as JSON: its bytes and media type, the name it is saved under, and —
 * for one that stays the same until a new version of it (an IPID, per tariff version) — that version, which the
 * answer carries as its ETag.
 */
export interface DocumentReply {
  readonly _tag: "DocumentReply"
  readonly mediaType: string
  readonly bytes: Uint8Array
  readonly fileName: string
  readonly version: string | undefined
  /** Headers of its own (its Content-Language), on a 304 too. */
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * Answers a rendered document under a file name, with the version its ETag names when it has one, and headers of
 * its own.
 */
export const documentReply = (
  document: { readonly mediaType: string; readonly bytes: Uint8Array },
  fileName: string,
  version?: string,
  headers?: Readonly<Record<string, string>>
): DocumentReply => ({
  _tag: "DocumentReply",
  mediaType: document.mediaType,
  bytes: document.bytes,
  fileName,
  version,
  ...(headers === undefined ? {} : { headers })
})

/** What an operation's program answers with. */
export type Reply = JsonReply | DocumentReply

/** The answers of an operation that answers a document (a PDF) instead of JSON. */
export interface DocumentResponse {
  readonly mediaType: string
  /**
   * Public and the same until it changes (an IPID): cacheable for `maxAgeSeconds`, with an ETag a client
   * revalidates with If-None-Match (304). Otherwise a private document (a quote's): `noStore`.
   */
  readonly maxAgeSeconds?: number
}

export interface OperationRequest {
  readonly params: Readonly<Record<string, string>>
  readonly body: unknown
  /** The partner the request acts for, once authenticated ("" for public operations). */
  readonly partnerId: string
  /** The products the partner may sell, once authenticated; undefined: every product (and for public operations). */
  readonly products: ReadonlyArray<string> | undefined
  /** The request's Idempotency-Key and the fingerprint of its body, when it sent one. */
  readonly idempotency: { readonly key: string; readonly fingerprint: string } | undefined
  /** The request's headers, as Node parsed them. */
  readonly headers: IncomingHttpHeaders
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

/** A documented error answer: what the status means here, and the problem it answers with. */
export interface ErrorAnswer {
  readonly description: string
  readonly example: object
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
  /** Answers a document of this media type (the handler's `DocumentReply`), not JSON: `responses` are then none. */
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
  /** What one of `errorStatuses` means for this operation, where every operation's words would not say (a 409's). */
  readonly errorAnswers?: Readonly<Record<number, ErrorAnswer>>
  /**
   * Prints a document on every request (a quote's, ~7 ms on the event loop): counted against the key's document
   * limit besides its request limit, and printed in turn with the others (`PrintingQueue.ts`).
   */
  readonly printsDocument?: true
  /** Quote answers must not be cached anywhere (`Cache-Control: no-store`). */
  readonly noStore?: true
  /**
   * Its answer's words follow the request's `Accept-Language` (Danish or English): the document lists the header,
   * and `Content-Language` and `Vary` on the answer.
   */
  readonly languageNegotiated?: true
  /** The operation honours an `Idempotency-Key` header. */
  readonly idempotent?: true
  /**
   * Answers `{}` unless the client asks for the resource with `Prefer: return=representation` (RFC 7240): the
   * document lists the header, and `Preference-Applied` on the answer that honours it.
   */
  readonly preferReturn?: true
  /** Runs the operation; answers the 200 body and the Schema that encodes it, or a document. */
  readonly handle: (request: OperationRequest) => Effect.Effect<Reply, CoreError, R>
}
