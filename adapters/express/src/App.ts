/**
 * The Express application: request id, log line, authentication, JSON bodies,
 * the operations, the document and its page — and problem+json for every
 * failure, replacing each of Express's default answers.
 */
import type { CoreError } from "@kasko/core"
import { Cause, Exit, Option, type ManagedRuntime } from "effect"
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express"
import type { Logger } from "pino"
import { apiReferencePage } from "./ApiReferencePage.js"
import { isPrincipal, type Authenticate } from "./Authentication.js"
import { isServerFault, problemOfCoreError } from "./CoreErrorProblems.js"
import { openApiDocument, type DocumentSettings } from "./OpenApiDocument.js"
import { OPERATIONS, type Operation, type Services } from "./Operations.js"
import { constraintViolation, PROBLEMS, sendProblem } from "./Problem.js"
import { requestId, requestIdOf } from "./RequestId.js"
import { redact, requestLog } from "./RequestLog.js"

export interface AppOptions {
  /** The runtime holding the store, ids and tariffs: built once at start-up, never per request. */
  readonly runtime: ManagedRuntime.ManagedRuntime<Services, unknown>
  readonly logger: Logger
  readonly authenticate: Authenticate
  /** Largest accepted request body. */
  readonly bodyLimitBytes: number
  readonly document: DocumentSettings
}

/** `/insurance/car/quotes/{quote_id}` → `/insurance/car/quotes/:quote_id` */
const expressPath = (template: string) => template.replace(/\{(\w+)\}/g, ":$1")

const hasEmptyBody = (request: Parameters<RequestHandler>[0]) =>
  request.headers["content-length"] === "0" && request.headers["transfer-encoding"] === undefined

const requireJsonBody: RequestHandler = (request, response, next) => {
  // no body at all is not a media-type problem: the operation reports the missing body as a violation
  if (!hasEmptyBody(request) && request.is("application/json") === false) {
    sendProblem(response, { problem: { ...PROBLEMS.unsupportedMediaType, detail: "The body must be application/json." } })
    return
  }
  next()
}

const BODY_PARSER_PROBLEMS: Readonly<Record<string, () => Parameters<typeof sendProblem>[1]>> = {
  "entity.parse.failed": () => constraintViolation([{ field: "body", message: "is not valid JSON" }]),
  "entity.too.large": () => ({ problem: PROBLEMS.payloadTooLarge }),
  "charset.unsupported": () => ({ problem: { ...PROBLEMS.unsupportedMediaType, detail: "The body must be UTF-8 JSON." } }),
  "encoding.unsupported": () => ({ problem: { ...PROBLEMS.unsupportedMediaType, detail: "Unsupported Content-Encoding." } }),
  "request.aborted": () => constraintViolation([{ field: "body", message: "was not received completely" }]),
  "request.size.invalid": () => constraintViolation([{ field: "body", message: "does not match its Content-Length" }])
}

export const makeApp = (options: AppOptions): Express => {
  const { runtime, logger, authenticate } = options
  const app = express()
  app.disable("x-powered-by")
  app.disable("etag")
  app.set("case sensitive routing", true)
  app.set("strict routing", true)
  app.set("query parser", "simple")

  app.use(requestId)
  app.use(requestLog(logger))

  const jsonBody = express.json({ limit: options.bodyLimitBytes, strict: true, type: "application/json" })

  const run =
    (operation: Operation): RequestHandler =>
    async (request, response) => {
      const caller = await authenticate(request, operation)
      if (!isPrincipal(caller)) {
        sendProblem(response, caller)
        return
      }
      const exit = await runtime.runPromiseExit(
        operation.handle({ params: request.params as Record<string, string>, body: request.body, partnerId: caller.partnerId })
      )
      if (Exit.isSuccess(exit)) {
        if (operation.noStore) response.setHeader("Cache-Control", "no-store")
        response.status(200).json(exit.value)
        return
      }
      const failure = Cause.failureOption(exit.cause) as Option.Option<CoreError>
      if (Option.isSome(failure)) {
        if (isServerFault(failure.value)) {
          logger.error({ request_id: requestIdOf(response.locals), error: redact(JSON.stringify(failure.value)) }, "storage or pricing failure")
        }
        sendProblem(response, problemOfCoreError(failure.value))
        return
      }
      logger.error({ request_id: requestIdOf(response.locals), error: redact(Cause.pretty(exit.cause)) }, "defect")
      sendProblem(response, { problem: PROBLEMS.internal })
    }

  const methodsByPath = new Map<string, Array<string>>()
  for (const operation of OPERATIONS) {
    const path = expressPath(operation.path)
    const handlers = operation.requestBody === undefined ? [run(operation)] : [requireJsonBody, jsonBody, run(operation)]
    app[operation.method](path, ...handlers)
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), operation.method.toUpperCase()])
  }

  const document = JSON.stringify(openApiDocument(OPERATIONS, options.document))
  app.get("/openapi.json", (_request, response) => {
    response.type("application/json").send(document)
  })
  methodsByPath.set("/openapi.json", ["GET"])
  app.use(apiReferencePage())
  methodsByPath.set("/docs", ["GET"])

  for (const [path, methods] of methodsByPath) {
    const allow = [...methods, ...(methods.includes("GET") ? ["HEAD"] : [])].join(", ")
    app.all(path, (_request, response) => {
      sendProblem(response, { problem: PROBLEMS.methodNotAllowed, headers: { Allow: allow } })
    })
  }

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
    logger.error({ request_id: requestIdOf(response.locals), error: redact(error instanceof Error ? (error.stack ?? error.message) : String(error)) }, "unhandled error")
    if (response.headersSent) {
      response.end()
      return
    }
    sendProblem(response, { problem: PROBLEMS.internal })
  }
  app.use(errorHandler)
  return app
}
