/**
 * What a request is answered with, as the transport writes it: a JSON reply encoded by its Schema, a document's
 * bytes (with its ETag, 304 when the client has it), or a problem.
 */
import type { Sandbox } from "@kasko/core/administration"
import { Data } from "effect"
import { answerEncoderOf } from "./AnswerEncoding.js"
import type { IncomingHttpHeaders } from "node:http"
import type { DocumentReply, JsonReply } from "./Operation.js"
import { PROBLEM_CONTENT_TYPE, type ProblemAnswer } from "./Problem.js"
import { DOCUMENT_CONTENT_SECURITY_POLICY } from "./Protection.js"
import { PROBLEM_LANGUAGE } from "./ContentLanguage.js"

/** A status, the answer's own headers, and its body: JSON text, or a document's bytes. */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | Uint8Array
  /** The trace the request ran in, when it ran in a span (tracing on): its log line names it. */
  readonly traceId?: string
  /** The environment of the key the request was authenticated with; absent when it was not authenticated. */
  readonly environment?: Sandbox.Environment
}

/** The request itself is unfit, or may not be served now: the answer says why. */
export class RequestRefused extends Data.TaggedError("RequestRefused")<{ readonly answer: ProblemAnswer }> {}

export const problemAnswer = (answer: ProblemAnswer): Answer => ({
  status: answer.problem.status,
  headers: {
    "Content-Type": `${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
    "Content-Language": PROBLEM_LANGUAGE,
    ...answer.headers
  },
  body: JSON.stringify(answer.problem)
})

const JSON_CONTENT_TYPE = "application/json; charset=utf-8"

/** A JSON reply as its 200: the value encoded by the reply's Schema, with the headers given. */
export const jsonAnswer = (reply: JsonReply, headers: Readonly<Record<string, string>>): Answer => ({
  status: 200,
  headers: { "Content-Type": JSON_CONTENT_TYPE, ...headers, ...reply.headers },
  body: JSON.stringify(answerEncoderOf(reply.schema)(reply.value))
})

/**
 * The answer to a sandbox key: the JSON answer with `"environment": "sandbox"` beside its fields, so that nothing
 * a sandbox answers can be taken for production's (whose answers stay as they are, without the field).
 */
export const sandboxJsonAnswer = (reply: JsonReply, headers: Readonly<Record<string, string>>): Answer => {
  const encoded = answerEncoderOf(reply.schema)(reply.value)
  const marked =
    typeof encoded === "object" && encoded !== null && !Array.isArray(encoded)
      ? { ...encoded, environment: "sandbox" }
      : encoded
  return {
    status: 200,
    headers: { "Content-Type": JSON_CONTENT_TYPE, ...headers, ...reply.headers },
    body: JSON.stringify(marked)
  }
}

/** The ETag of a document's version: weak, as the same version is the same content, not always the same bytes. */
const etagOf = (version: string) => `W/"${version.replace(/[^\x21\x23-\x7e]/g, "_")}"`

/** Whether If-None-Match names the ETag (`*`, or one of a list; weak comparison, RFC 9110 §13.1.2). */
const isNotModified = (ifNoneMatch: string | undefined, etag: string): boolean => {
  if (ifNoneMatch === undefined) return false
  const opaque = etag.replace(/^W\//, "")
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim())
    .some((tag) => tag === "*" || tag.replace(/^W\//, "") === opaque)
}

/**
 * The answer of a document: its bytes and media type, how caches may keep it (`maxAgeSeconds`: public; else
 * never stored), and its ETag (304 when the client has it). One that caches may keep carries none of `headers`
 * (the RateLimit headers): a shared cache would hand this client's count to every client it answers from its copy.
 */
export const documentAnswer = (
  document: DocumentReply,
  requestHeaders: IncomingHttpHeaders,
  maxAgeSeconds: number | undefined,
  headers: Readonly<Record<string, string>>
): Answer => {
  const etag = document.version === undefined ? undefined : etagOf(document.version)
  const cacheHeaders: Record<string, string> = {
    "Cache-Control": maxAgeSeconds === undefined ? "no-store" : `public, max-age=${maxAgeSeconds}`,
    ...(etag === undefined ? {} : { ETag: etag }),
    ...document.headers,
    ...(maxAgeSeconds === undefined ? headers : {})
  }
  if (etag !== undefined && isNotModified(requestHeaders["if-none-match"], etag))
    return { status: 304, headers: cacheHeaders, body: "" }
  return {
    status: 200,
    headers: {
      "Content-Type": document.mediaType,
      "Content-Disposition": `inline; filename="${document.fileName.replace(/[^\w.-]/g, "_")}"`,
      "Content-Security-Policy": DOCUMENT_CONTENT_SECURITY_POLICY,
      ...cacheHeaders
    },
    body: document.bytes
  }
}
