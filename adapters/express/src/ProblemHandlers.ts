/**
 * The answers Express would otherwise give itself — unknown path, wrong method,
 * a path that does not decode, unexpected errors — as problem+json. Installed last.
 */
import type { ErrorRequestHandler, Express, IRouter } from "express"
import type { Logger } from "pino"
import { constraintViolation, PROBLEMS, sendProblem, type ProblemAnswer } from "./Problem.js"
import { requestIdOf } from "./RequestId.js"
import { redact } from "./RequestLog.js"

interface HttpError {
  readonly type?: unknown
  readonly status?: unknown
  readonly code?: unknown
  readonly message?: unknown
}

/** The answer to a client's mistake that reached Express as an error, or undefined for a fault of the service's own. */
const problemOfClientError = (error: HttpError): ProblemAnswer | undefined => {
  if (typeof error.status !== "number" || error.status < 400 || error.status > 499) return undefined
  if (error instanceof URIError || String(error.message).startsWith("Failed to decode param")) {
    return constraintViolation([{ field: "path", message: "has malformed percent-encoding" }])
  }
  return constraintViolation([{ field: "request", message: "is malformed" }])
}

const codeOf = (error: HttpError): string => String(error.type ?? error.code ?? "unknown")

/** Answers 405 with Allow on each path for the methods it lacks. */
export const installMethodNotAllowed = (
  router: IRouter,
  methodsByPath: ReadonlyMap<string, ReadonlyArray<string>>
): void => {
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods, ...(methods.includes("GET") ? ["HEAD"] : [])].join(", ")
    router.all(path, (_request, response) => {
      sendProblem(response, { problem: PROBLEMS.methodNotAllowed, headers: { Allow: allow } })
    })
  }
}

/** 404 for every unknown path, and problem+json for every error that reaches Express. */
export const installProblemFallbacks = (app: Express, logger: Logger): void => {
  app.use((_request, response) => {
    sendProblem(response, { problem: PROBLEMS.notFound })
  })
  const errorHandler: ErrorRequestHandler = (error, _request, response, _next) => {
    const clientMistake =
      typeof error === "object" && error !== null ? problemOfClientError(error as HttpError) : undefined
    if (clientMistake !== undefined) {
      // the client's mistake, not the service's: no stack, no error level
      logger.warn(
        { request_id: requestIdOf(response.locals), status: clientMistake.problem.status, code: codeOf(error) },
        "refused a malformed request"
      )
      if (!response.headersSent) sendProblem(response, clientMistake)
      return
    }
    logger.error(
      {
        request_id: requestIdOf(response.locals),
        error: redact(error instanceof Error ? (error.stack ?? error.message) : String(error))
      },
      "unhandled error"
    )
    if (response.headersSent) {
      response.end()
      return
    }
    sendProblem(response, { problem: PROBLEMS.internal })
  }
  app.use(errorHandler)
}
