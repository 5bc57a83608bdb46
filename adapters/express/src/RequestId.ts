/** `X-Request-Id`: the client's when it is a safe token, else a new UUID; echoed on every answer. */
import type { RequestHandler } from "express"
import { randomUUID } from "node:crypto"

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

export const requestId: RequestHandler = (request, response, next) => {
  const offered = request.get("x-request-id")
  const id = offered !== undefined && SAFE_REQUEST_ID.test(offered) ? offered : randomUUID()
  response.locals["requestId"] = id
  response.setHeader("X-Request-Id", id)
  next()
}

/** The request id of an answer in progress. */
export const requestIdOf = (locals: Record<string, unknown>): string => String(locals["requestId"] ?? "unknown")
