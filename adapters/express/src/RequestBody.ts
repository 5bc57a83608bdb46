/**
 * Reading a JSON request body, as an Effect a request's program waits on —
 * after its credentials were checked, never before. `application/json` in
 * UTF-8 only (415 otherwise); `identity`, `gzip`, `deflate` or `br` (415 for
 * another Content-Encoding, 400 when the body does not decode); at most
 * `limitBytes` after decompression (413); valid UTF-8 (400: its bytes never
 * become U+FFFD); valid JSON (400); nesting at most MAX_JSON_DEPTH levels and
 * at most MAX_JSON_COLLECTION entries per array or object (400) — no request
 * shape needs more, and deep or wide documents only cost the service. A
 * request without a body reads as undefined (the operation names it missing).
 * Interrupted, it stops reading and lets go of the stream.
 */
import { Data, Effect } from "effect"
import { isUtf8 } from "node:buffer"
import type { IncomingMessage } from "node:http"
import type { Transform } from "node:stream"
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib"
import { constraintViolation, PROBLEMS, type ProblemAnswer } from "./Problem.js"

/** The deepest nesting of arrays and objects a JSON body may have; deeper is refused with 400. */
export const MAX_JSON_DEPTH = 32
/** The most entries one array or object of a JSON body may hold; more is refused with 400. */
export const MAX_JSON_COLLECTION = 1_000

/** The body cannot be taken: the answer says why. */
export class BodyRefused extends Data.TaggedError("BodyRefused")<{ readonly answer: ProblemAnswer }> {}

const refused = (answer: ProblemAnswer) => new BodyRefused({ answer })
const violation = (message: string) => refused(constraintViolation([{ field: "body", message }]))
/** A violation found before the body was read to its end: the connection is closed after the answer. */
const unfinished = (message: string) =>
  refused({ ...constraintViolation([{ field: "body", message }]), headers: { Connection: "close" } })

const ACCEPTED_ENCODINGS = "identity, gzip, deflate or br"
const NOT_JSON = refused({
  problem: { ...PROBLEMS.unsupportedMediaType, detail: "The body must be application/json." }
})
const NOT_UTF8_CHARSET = refused({
  problem: { ...PROBLEMS.unsupportedMediaType, detail: "The body must be UTF-8 JSON." }
})
const UNKNOWN_ENCODING = refused({
  problem: {
    ...PROBLEMS.unsupportedMediaType,
    detail: `The Content-Encoding is not accepted: send ${ACCEPTED_ENCODINGS}.`
  }
})
// the rest of the body is not read: the connection is closed after the answer, never reused mid-request
const TOO_LARGE = refused({ problem: PROBLEMS.payloadTooLarge, headers: { Connection: "close" } })

const DECOMPRESSORS = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress
} as const

/** Why a parsed body is too deep or too wide, or undefined. Iterative: the check itself cannot overflow the stack. */
export const shapeProblem = (body: unknown): string | undefined => {
  const pending: Array<[unknown, number]> = [[body, 1]]
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!
    if (typeof value !== "object" || value === null) continue
    if (depth > MAX_JSON_DEPTH) return `nests deeper than ${MAX_JSON_DEPTH} levels`
    const entries = Array.isArray(value) ? value : Object.values(value)
    if (entries.length > MAX_JSON_COLLECTION)
      return `holds an array or object of more than ${MAX_JSON_COLLECTION} entries`
    for (const entry of entries) pending.push([entry, depth + 1])
  }
  return undefined
}

/** The media type and charset of a Content-Type header, lower-cased. */
const contentTypeOf = (header: string): { readonly mediaType: string; readonly charset: string | undefined } => {
  const separator = header.indexOf(";")
  const mediaType = (separator === -1 ? header : header.slice(0, separator)).trim().toLowerCase()
  const charset =
    separator === -1 ? undefined : /charset\s*=\s*"?([^";\s]+)/i.exec(header.slice(separator))?.[1]?.toLowerCase()
  return { mediaType, charset }
}

/** The parsed body, from the bytes as received (after decompression). */
const parsedBody = (bytes: Buffer): Effect.Effect<unknown, BodyRefused> => {
  if (!isUtf8(bytes)) return Effect.fail(violation("is not valid UTF-8"))
  let body: unknown
  try {
    body = JSON.parse(bytes.toString("utf8"))
  } catch {
    return Effect.fail(violation("is not valid JSON"))
  }
  const problem = shapeProblem(body)
  return problem === undefined ? Effect.succeed(body) : Effect.fail(violation(problem))
}

/** Reads, decodes and parses a request's JSON body within `limitBytes`. */
export const readJsonBody = (request: IncomingMessage, limitBytes: number): Effect.Effect<unknown, BodyRefused> =>
  Effect.suspend(() => {
    const headers = request.headers
    const declared = headers["content-length"]
    const chunked = headers["transfer-encoding"] !== undefined
    if (!chunked && (declared === undefined || declared === "0")) return Effect.succeed(undefined)
    const { mediaType, charset } = contentTypeOf(headers["content-type"] ?? "")
    if (mediaType !== "application/json") return Effect.fail(NOT_JSON)
    // JSON between systems is UTF-8 (RFC 8259 §8.1)
    if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") return Effect.fail(NOT_UTF8_CHARSET)
    const encoding = (headers["content-encoding"] ?? "identity").trim().toLowerCase()
    const decompressor = encoding === "identity" ? undefined : DECOMPRESSORS[encoding as keyof typeof DECOMPRESSORS]
    if (encoding !== "identity" && decompressor === undefined) return Effect.fail(UNKNOWN_ENCODING)
    if (declared !== undefined && encoding === "identity" && Number(declared) > limitBytes)
      return Effect.fail(TOO_LARGE)
    return Effect.flatMap(
      receive(request, limitBytes, declared === undefined || chunked ? undefined : Number(declared), decompressor?.()),
      parsedBody
    )
  })

/** The body's bytes, decompressed when a decompressor is given; interrupted, it lets go of the streams. */
const receive = (
  request: IncomingMessage,
  limitBytes: number,
  declaredLength: number | undefined,
  decompressor: Transform | undefined
): Effect.Effect<Buffer, BodyRefused> =>
  Effect.callback<Buffer, BodyRefused>((resume) => {
    const source: NodeJS.ReadableStream = decompressor === undefined ? request : request.pipe(decompressor)
    let first: Buffer | undefined
    let chunks: Array<Buffer> | undefined
    let received = 0
    let settled = false
    const release = () => {
      source.removeListener("data", onData)
      source.removeListener("end", onEnd)
      source.removeListener("error", onError)
      if (decompressor !== undefined) {
        request.removeListener("error", onError)
        request.unpipe(decompressor)
        decompressor.destroy()
      }
    }
    const settle = (outcome: Effect.Effect<Buffer, BodyRefused>) => {
      if (settled) return
      settled = true
      release()
      resume(outcome)
    }
    const onData = (chunk: Buffer) => {
      received += chunk.length
      if (received > limitBytes) return settle(Effect.fail(TOO_LARGE))
      // most bodies arrive in one chunk: no array, no concatenation
      if (first === undefined) first = chunk
      else {
        chunks ??= [first]
        chunks.push(chunk)
      }
    }
    const onEnd = () => {
      if (decompressor === undefined && declaredLength !== undefined && received !== declaredLength) {
        return settle(Effect.fail(unfinished("does not match its Content-Length")))
      }
      settle(Effect.succeed(chunks !== undefined ? Buffer.concat(chunks) : (first ?? Buffer.alloc(0))))
    }
    // a client that goes away mid-body destroys the request with an error; so does a body that does not decompress
    const onError = () =>
      settle(
        Effect.fail(
          decompressor === undefined
            ? unfinished("was not received completely")
            : unfinished("does not decode with its Content-Encoding")
        )
      )
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    if (decompressor !== undefined) request.on("error", onError)
    return Effect.sync(() => {
      settled = true
      release()
    })
  })
