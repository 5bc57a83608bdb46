/**
 * The answers Express would otherwise give itself — unknown path, wrong method,
 * body-parser failures, unexpected errors — as problem+json. Installed last.
 */
import type { ErrorRequestHandler, Express, IRouter } from "express"
import type { Logger } from "pino"
import { constraintViolation, PROBLEMS, sendProblem, type ProblemAnswer } from "./Problem.js"
import { requestIdOf } from "./RequestId.js"
import { redact } from "./RequestLog.js"

const BODY_PARSER_PROBLEMS: Readonly<Record<string, () => ProblemAnswer>> = {
  "entity.parse.failed": () => constraintViolation([{ field: "body", message: "is not valid JSON" }]),
  "entity.too.large": () => ({ problem: PROBLEMS.payloadTooLarge }),
  "charset.unsupported": () => ({ problem: { ...PROBLEMS.unsupportedMediaType, detail: "The body must be UTF-8 JSON." } }),
  "encoding.unsupported": () => ({ problem: { ...PROBLEMS.unsupportedMediaType, detail: "Unsupported Content-Encoding." } }),
  "request.aborted": () => constraintViolation([{ field: "body", message: "was not received completely" }]),
  "request.size.invalid": () => constraintViolation([{ field: "body", message: "does not match its Content-Length" }])
}

/** Answers 405 with Allow on each path for the methods it lacks. */
export const installMethodNotAllowed = (router: IRouter, methodsByPath: ReadonlyMap<string, ReadonlyArray<string>>): void => {
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
    const type = typeof error === "object" && error !== null && "type" in error ? String(error.type) : ""
    const known = BODY_PARSER_PROBLEMS[type]
    if (known !== undefined) {
      sendProblem(response, known())
      return
    }
    logger.error(
      { request_id: requestIdOf(response.locals), error: redact(error instanceof Error ? (error.stack ?? error.message) : String(error)) },
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
