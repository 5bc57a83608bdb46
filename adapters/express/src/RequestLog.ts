/**
 * One structured log line per request (method, path, status, duration,
 * request id, and the trace id when the request ran in a span), and redaction
 * for anything else that is logged: no CPR number and no token ever reaches a log.
 */
import type { RequestHandler } from "express"
import type { Logger } from "pino"
import { requestIdOf } from "./RequestId.js"

const CPR_LIKE = /\b\d{6}-?\d{4}\b/g
const BEARER_TOKEN = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi
const JWT_LIKE = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g

/** Text with CPR-like numbers and tokens replaced, for error logs. */
export const redact = (text: string): string =>
  text
    .replace(BEARER_TOKEN, "$1[redacted]")
    .replace(JWT_LIKE, "[redacted-token]")
    .replace(CPR_LIKE, "[redacted-number]")

/** Middleware that logs one structured line when each request's answer is finished, with its request id. */
export const requestLog =
  (logger: Logger): RequestHandler =>
  (request, response, next) => {
    const started = process.hrtime.bigint()
    response.on("finish", () => {
      const traceId = response.locals["traceId"]
      logger.info(
        {
          request_id: requestIdOf(response.locals),
          method: request.method,
          path: redact(request.path),
          status: response.statusCode,
          duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
          ...(typeof traceId === "string" ? { trace_id: traceId } : {})
        },
        "request"
      )
    })
    next()
  }
