/** `X-Request-Id`: the client's when it is a safe token, else a new UUID; echoed on every answer. */
import type { RequestHandler } from "express"
import { randomUUID } from "node:crypto"

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The request id for a request that offered `offered` (an X-Request-Id header value, or none). */
export const requestIdFor = (offered: string | ReadonlyArray<string> | undefined): string =>
  typeof offered === "string" && SAFE_REQUEST_ID.test(offered) ? offered : randomUUID()

/** Middleware that gives each request its id (`requestIdFor`) and echoes it as `X-Request-Id`: install it first. */
export const requestId: RequestHandler = (request, response, next) => {
  const id = requestIdFor(request.headers["x-request-id"])
  response.locals["requestId"] = id
  response.setHeader("X-Request-Id", id)
  next()
}

/** The request id of an answer in progress. */
export const requestIdOf = (locals: Record<string, unknown>): string => String(locals["requestId"] ?? "unknown")
