/**
 * JSON request bodies: application/json in UTF-8 only (415 otherwise), valid
 * UTF-8 (400), decoded from identity, gzip, deflate or br (415 for another
 * Content-Encoding, 400 when it does not decode), within a size limit (413,
 * counted after decompression), nesting at most MAX_JSON_DEPTH levels and holding at most
 * MAX_JSON_COLLECTION entries per array or object (400) — no request shape
 * needs more, and deep or wide documents only cost the service.
 */
import express, { type Request, type RequestHandler } from "express"
import { isUtf8 } from "node:buffer"
import { constraintViolation, PROBLEMS, sendProblem } from "./Problem.js"

export const MAX_JSON_DEPTH = 32
export const MAX_JSON_COLLECTION = 1_000

/** Why a parsed body is too deep or too wide, or undefined. Iterative: the check itself cannot overflow the stack. */
const shapeProblem = (body: unknown): string | undefined => {
  const pending: Array<[unknown, number]> = [[body, 1]]
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!
    if (typeof value !== "object" || value === null) continue
    if (depth > MAX_JSON_DEPTH) return `nests deeper than ${MAX_JSON_DEPTH} levels`
    const entries = Array.isArray(value) ? value : Object.values(value)
    if (entries.length > MAX_JSON_COLLECTION) return `holds an array or object of more than ${MAX_JSON_COLLECTION} entries`
    for (const entry of entries) pending.push([entry, depth + 1])
  }
  return undefined
}

const limitShape: RequestHandler = (request, response, next) => {
  const problem = shapeProblem(request.body)
  if (problem !== undefined) {
    sendProblem(response, constraintViolation([{ field: "body", message: problem }]))
    return
  }
  next()
}

const hasEmptyBody = (request: Request) =>
  request.headers["content-length"] === "0" && request.headers["transfer-encoding"] === undefined

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i

const requireJsonBody: RequestHandler = (request, response, next) => {
  // no body at all is not a media-type problem: the operation reports the missing body as a violation
  if (hasEmptyBody(request)) return next()
  if (request.is("application/json") === false) {
    sendProblem(response, { problem: { ...PROBLEMS.unsupportedMediaType, detail: "The body must be application/json." } })
    return
  }
  // JSON between systems is UTF-8 (RFC 8259 §8.1)
  const charset = CHARSET.exec(request.get("content-type") ?? "")?.[1]?.toLowerCase()
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    sendProblem(response, { problem: { ...PROBLEMS.unsupportedMediaType, detail: "The body must be UTF-8 JSON." } })
    return
  }
  next()
}

/** Refuses a body that is not valid UTF-8 instead of letting its bytes become U+FFFD. */
const verifyUtf8 = (_request: unknown, _response: unknown, body: Buffer) => {
  if (!isUtf8(body)) throw Object.assign(new Error("the body is not valid UTF-8"), { type: "entity.invalid.utf8" })
}

/** The middleware that admits a JSON body; parse failures reach the problem error handler. */
export const jsonBody = (limitBytes: number): Array<RequestHandler> => [
  requireJsonBody,
  express.json({ limit: limitBytes, strict: true, type: "application/json", verify: verifyUtf8 }),
  limitShape
]
