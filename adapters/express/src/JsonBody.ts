/** JSON request bodies: application/json only (415 otherwise), within a size limit (413). */
import express, { type Request, type RequestHandler } from "express"
import { PROBLEMS, sendProblem } from "./Problem.js"

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
  express.json({ limit: limitBytes, strict: true, type: "application/json" })
]
