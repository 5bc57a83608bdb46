/**
 * The answers Express would otherwise give itself — unknown path, wrong method,
 * body-parser failures, unexpected errors — as problem+json. Installed last.
 */
import type { ErrorRequestHandler, Express, IRouter } from "express"
import type { Logger } from "pino"
import { constraintViolation, PROBLEMS, sendProblem, type ProblemAnswer } from "./Problem.js"
import { requestIdOf } from "./RequestId.js"
import { redact } from "./RequestLog.js"

const ACCEPTED_ENCODINGS = "identity, gzip, deflate or br"

// body-parser's failures, by their `type`
const BODY_PARSER_PROBLEMS: Readonly<Record<string, () => ProblemAnswer>> = {
  "entity.parse.failed": () => constraintViolation([{ field: "body", message: "is not valid JSON" }]),
  "entity.invalid.utf8": () => constraintViolation([{ field: "body", message: "is not valid UTF-8" }]),
  "entity.too.large": () => ({ problem: PROBLEMS.payloadTooLarge }),
  "charset.unsupported": () => ({ problem: { ...PROBLEMS.unsupportedMediaType, detail: "The body must be UTF-8 JSON." } }),
  "encoding.unsupported": () => ({
    problem: { ...PROBLEMS.unsupportedMediaType, detail: `The Content-Encoding is not accepted: send ${ACCEPTED_ENCODINGS}.` }
  }),
  "request.aborted": () => constraintViolation([{ field: "body", message: "was not received completely" }]),
  "request.size.invalid": () => constraintViolation([{ field: "body", message: "does not match its Content-Length" }])
}

interface HttpError {
  readonly type?: unknown
  readonly status?: unknown
  readonly code?: unknown
  readonly message?: unknown
}

// zlib codes (Z_DATA_ERROR…) and brotli ones (ERR__ERROR_FORMAT_PADDING_1…)
const isDecompressionError = (error: HttpError) => typeof error.code === "string" && /^(Z_|ERR__)/.test(error.code)

/** The answer to a client's mistake that reached Express as an error, or undefined for a fault of the service's own. */
const problemOfClientError = (error: HttpError): ProblemAnswer | undefined => {
  const known = typeof error.type === "string" ? BODY_PARSER_PROBLEMS[error.type] : undefined
  if (known !== undefined) return known()
  if (typeof error.status !== "number" || error.status < 400 || error.status > 499) return undefined
  if (error instanceof URIError || String(error.message).startsWith("Failed to decode param")) {
    return constraintViolation([{ field: "path", message: "has malformed percent-encoding" }])
  }
  if (isDecompressionError(error)) return constraintViolation([{ field: "body", message: "does not decode with its Content-Encoding" }])
  return constraintViolation([{ field: "request", message: "is malformed" }])
}

const codeOf = (error: HttpError): string => String(error.type ?? error.code ?? "unknown")

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
    const clientMistake = typeof error === "object" && error !== null ? problemOfClientError(error as HttpError) : undefined
    if (clientMistake !== undefined) {
      // the client's mistake, not the service's: no stack, no error level
      logger.warn({ request_id: requestIdOf(response.locals), status: clientMistake.problem.status, code: codeOf(error) }, "refused a malformed request")
      if (!response.headersSent) sendProblem(response, clientMistake)
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
