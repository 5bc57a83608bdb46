/**
 * JSON request bodies: application/json only (415 otherwise), within a size
 * limit (413), nesting at most MAX_JSON_DEPTH levels and holding at most
 * MAX_JSON_COLLECTION entries per array or object (400) — no request shape
 * needs more, and deep or wide documents only cost the service.
 */
import express, { type Request, type RequestHandler } from "express"
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

const requireJsonBody: RequestHandler = (request, response, next) => {
  // no body at all is not a media-type problem: the operation reports the missing body as a violation
  if (!hasEmptyBody(request) && request.is("application/json") === false) {
    sendProblem(response, { problem: { ...PROBLEMS.unsupportedMediaType, detail: "The body must be application/json." } })
    return
  }
  next()
}

/** The middleware that admits a JSON body; parse failures reach the problem error handler. */
export const jsonBody = (limitBytes: number): Array<RequestHandler> => [
  requireJsonBody,
  express.json({ limit: limitBytes, strict: true, type: "application/json" }),
  limitShape
]
