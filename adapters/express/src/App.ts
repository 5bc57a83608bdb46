/**
 * The Express application. A request for an operation runs as one Effect
 * program in the service's runtime (RequestProgram); Express only hands it
 * the request and writes the answer it comes back with. Everything else — the
 * document, its page, 404s, 405s, Express's own errors — answers
 * problem+json through Express's routes, with the same request id, log line
 * and security headers.
 */
import { Exit, type ManagedRuntime } from "effect"
import express, { type Express, type Request, type Response } from "express"
import type { Logger } from "pino"
import { API_REFERENCE_PATHS, apiReferencePage } from "./ApiReferencePage.js"
import { makeDispatch } from "./Dispatch.js"
import { openApiDocument, type DocumentSettings } from "./OpenApiDocument.js"
import { OPERATIONS, type Services } from "./Operations.js"
import { PROBLEM_CONTENT_TYPE, PROBLEMS } from "./Problem.js"
import { installMethodNotAllowed, installProblemFallbacks } from "./ProblemHandlers.js"
import { clientAddressKey, corsFor, requireHost, securityHeaderList, securityHeaders, trustProxySetting, type ProtectionOptions } from "./Protection.js"
import { requestId, requestIdFor } from "./RequestId.js"
import { redact, requestLog } from "./RequestLog.js"
import { requestProgram, type Answer, type ProgramSettings } from "./RequestProgram.js"

export interface AppOptions {
  /** The runtime holding every service a request needs: built once at start-up, never per request. */
  readonly runtime: ManagedRuntime.ManagedRuntime<Services, unknown>
  readonly logger: Logger
  /** Largest accepted request body. */
  readonly bodyLimitBytes: number
  readonly protection: ProtectionOptions
  /** Longest a request may wait on the identity provider or on storage before it answers 503 instead of hanging. */
  readonly requestTimeoutMillis: number
  readonly document: DocumentSettings
}

// what a request's program comes back with when the runtime itself is gone (shutting down)
const SHUTTING_DOWN: Answer = {
  status: 503,
  headers: { "Content-Type": `${PROBLEM_CONTENT_TYPE}; charset=utf-8`, "Retry-After": "5" },
  body: JSON.stringify(PROBLEMS.serviceUnavailable)
}

export const makeApp = (options: AppOptions): Express => {
  const { runtime, logger } = options
  const basePath = options.document.basePath ?? ""
  const app = express()
  app.disable("x-powered-by")
  app.disable("etag")
  app.set("case sensitive routing", true)
  app.set("strict routing", true)
  app.set("query parser", "simple")
  const trustProxy = trustProxySetting(options.protection.trustProxy)
  app.set("trust proxy", trustProxy)

  const headers = securityHeaderList()
  const settings: ProgramSettings = {
    bodyLimitBytes: options.bodyLimitBytes,
    budgetMillis: options.requestTimeoutMillis,
    requestsPerMinute: options.protection.requestsPerMinute,
    failedAuthenticationsPerMinute: options.protection.failedAuthenticationsPerMinute,
    logger
  }
  const dispatch = makeDispatch(OPERATIONS, basePath)

  const writeAnswer = (request: Request, response: Response, answer: Answer, id: string, started: bigint) => {
    response.statusCode = answer.status
    for (const [name, value] of headers) response.setHeader(name, value)
    response.setHeader("X-Request-Id", id)
    for (const name in answer.headers) response.setHeader(name, answer.headers[name]!)
    response.setHeader("Content-Length", Buffer.byteLength(answer.body))
    response.end(answer.body)
    logger.info(
      { request_id: id, method: request.method, path: redact(request.url), status: answer.status, duration_ms: Number(process.hrtime.bigint() - started) / 1e6 },
      "request"
    )
  }

  for (const middleware of corsFor(options.protection.corsOrigins)) app.use(middleware)

  // the operations: one program per request, run in the service's runtime
  app.use((request, response, next) => {
    const match = dispatch(request.method, request.url)
    if (match === undefined) return next()
    const started = process.hrtime.bigint()
    const id = requestIdFor(request.headers["x-request-id"])
    if ("refused" in match) {
      const { problem, headers: problemHeaders } = match.refused
      logger.warn({ request_id: id, status: problem.status }, "refused a malformed request")
      return writeAnswer(request, response, { status: problem.status, headers: { "Content-Type": `${PROBLEM_CONTENT_TYPE}; charset=utf-8`, ...problemHeaders }, body: JSON.stringify(problem) }, id, started)
    }
    const address = clientAddressKey((trustProxy === false ? request.socket.remoteAddress : request.ip) ?? "unknown")
    runtime.runCallback(requestProgram({ operation: match.operation, params: match.params, request, address, requestId: id }, settings), {
      onExit: (exit) => writeAnswer(request, response, Exit.isSuccess(exit) ? exit.value : SHUTTING_DOWN, id, started)
    })
  })

  // everything else: the document, its page, 404s and 405s
  app.use(requestId)
  app.use(requestLog(logger))
  app.use(securityHeaders(headers))
  app.use(requireHost)
  const api = express.Router({ caseSensitive: true, strict: true })
  const document = JSON.stringify(openApiDocument(OPERATIONS, options.document))
  api.get("/openapi.json", (_request, response) => {
    response.type("application/json").send(document)
  })
  api.use(apiReferencePage())
  const methodsByPath = { api: new Map<string, Array<string>>(), root: new Map<string, Array<string>>() }
  for (const operation of OPERATIONS) {
    const path = operation.path.replace(/\{(\w+)\}/g, ":$1")
    const methods = operation.servedAtRoot ? methodsByPath.root : methodsByPath.api
    methods.set(path, [...(methods.get(path) ?? []), operation.method.toUpperCase()])
  }
  methodsByPath.api.set("/openapi.json", ["GET"])
  for (const path of API_REFERENCE_PATHS) methodsByPath.api.set(path, ["GET"])
  installMethodNotAllowed(api, methodsByPath.api)
  installMethodNotAllowed(app, methodsByPath.root)
  app.use(basePath || "/", api)
  installProblemFallbacks(app, logger)
  return app
}
