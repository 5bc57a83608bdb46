/**
 * The Express application: one middleware stack for every route — request id,
 * log line, security headers, the Host check, CORS when configured — then the
 * operations' routes, each answering with one Effect program run in the
 * service's runtime (RequestProgram), then the documents, their page, and
 * problem+json for 404s, 405s and Express's own errors.
 */
import type { Sandbox } from "@kasko/core/administration"
import { ProductCatalogue } from "@kasko/core/transport"
import { asyncApiDocument } from "./AsyncApiDocument.js"
import { Exit, type ManagedRuntime } from "effect"
import express, { type Express, type Request, type Response } from "express"
import type { Logger } from "pino"
import { API_REFERENCE_PATHS, apiReferencePage } from "./ApiReferencePage.js"
import { type Answer, problemAnswer } from "./Answers.js"
import { RETRY_AFTER_SECONDS } from "./CoreErrorProblems.js"
import { openApiDocument, type DocumentSettings } from "./OpenApiDocument.js"
import { type Operation, operationsOf, type Services } from "./Operations.js"
import { PROBLEMS } from "./Problem.js"
import { installMethodNotAllowed, installProblemFallbacks } from "./ProblemHandlers.js"
import {
  clientAddressKey,
  corsFor,
  requireUnambiguousHeaders,
  securityHeaders,
  trustProxySetting,
  type ProtectionOptions
} from "./Protection.js"
import { requestId, requestIdOf } from "./RequestId.js"
import { requestLog } from "./RequestLog.js"
import { endpointProgram, requestProgram, type ProgramSettings } from "./RequestProgram.js"
import type { ProtocolEndpoint } from "./ProtocolEndpoint.js"
import { makePrintingQueue } from "./PrintingQueue.js"

/** How long a sandbox key past its limit waits for its 429 unless `protection.sandboxRefusalPauseMillis` says. */
const SANDBOX_REFUSAL_PAUSE_MILLIS = 500

/** Quote documents one subscription key may have printed per minute unless `protection.documentsPerMinute` says. */
const DOCUMENTS_PER_MINUTE = 60
// two at a time: one looks its quote up while the other is laid out (which never overlap, on one thread); 32
// waiting is ~0.2 s of printing, 10 of them one partner's: as many as it may print at once and have waiting
// alone, whoever else is printing
const PRINTING = { atOnce: 2, waiting: 32, waitingPerPartner: 10 } as const

/** What `makeApp` builds the partner API from: the runtime of its services, its logger, limits, protection and documents. */
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
  /** Told of each operation's request as it starts and when it is answered (metrics); nothing by default. */
  readonly observer?: RequestObserver
  /** Runs each operation's request in a span (continuing a `traceparent`), its trace id in the log line. Off by default. */
  readonly tracing?: boolean
  /**
   * The products the API sells: its answers are encoded, and its OpenAPI and AsyncAPI documents written, with their
   * names. The catalogue of the runtime's TariffBook; the shipped products unless given.
   */
  readonly catalogue?: ProductCatalogue.Catalogue
  /**
   * Endpoints of other protocols served on this stack beside the operations (the MCP endpoint of `@kasko/mcp`):
   * none by default. Their services must be among the runtime's.
   */
  readonly endpoints?: ReadonlyArray<ProtocolEndpoint<Services>>
}

/** What watches the partner API's requests: one `started`, then one `answered`, per operation request. */
export interface RequestObserver {
  readonly started: () => void
  /**
   * A request answered: its operation (or endpoint), status and time, and the environment of the key it was
   * authenticated with — `production` or `sandbox` — or undefined when it was not authenticated (a public
   * operation, or credentials refused).
   */
  readonly answered: (
    operationId: string,
    status: number,
    seconds: number,
    environment: Sandbox.Environment | undefined
  ) => void
}

// what a request answers when the service stops under it (its fiber interrupted by the runtime's disposal)
const SHUTTING_DOWN = problemAnswer({
  problem: PROBLEMS.serviceUnavailable,
  headers: { "Retry-After": String(RETRY_AFTER_SECONDS) }
})

/** An OpenAPI path template (`/quotes/{quote_id}`) as an Express route path (`/quotes/:quote_id`). */
const routePath = (template: string): string => template.replace(/\{(\w+)\}/g, ":$1")

/**
 * Writes an answer after the headers the middleware set. A body whose reading began and stopped before its end
 * (too large once decompressed, undecodable, over the time budget) leaves the rest of it on the connection, where
 * Node would parse it as the next request: close it. A body never read at all (credentials refused first) Node
 * discards itself, keeping the connection.
 */
const writeAnswer = (request: Request, response: Response, answer: Answer) => {
  if (answer.traceId !== undefined) response.locals["traceId"] = answer.traceId
  const { Vary: vary, ...headers }: Record<string, string> = { ...answer.headers }
  // added to what the middleware said the answer varies with (CORS: Origin), not in its place
  if (vary !== undefined) response.vary(vary)
  // a 304 has no body, and no length of the one it stands for
  if (answer.status !== 304) headers["Content-Length"] = String(Buffer.byteLength(answer.body))
  if (request.readableDidRead && !request.readableEnded) headers["Connection"] = "close"
  response.writeHead(answer.status, headers)
  response.end(answer.body)
}

/**
 * kasko's partner API as an Express application: every operation behind one middleware stack, problem+json
 * answers, the OpenAPI and AsyncAPI documents and `/docs`. Serve it yourself, or mount it in an application of yours.
 */
export const makeApp = (options: AppOptions): Express => {
  const { runtime, logger, observer } = options
  const catalogue = options.catalogue ?? ProductCatalogue.shipped
  const operations = operationsOf(catalogue)
  const basePath = options.document.basePath ?? ""
  const app = express()
  app.disable("x-powered-by")
  app.disable("etag")
  app.set("case sensitive routing", true)
  app.set("strict routing", true)
  app.set("query parser", "simple")
  const trustProxy = trustProxySetting(options.protection.trustProxy)
  app.set("trust proxy", trustProxy)

  const settings: ProgramSettings = {
    bodyLimitBytes: options.bodyLimitBytes,
    budgetMillis: options.requestTimeoutMillis,
    requestsPerMinute: options.protection.requestsPerMinute,
    sandboxRequestsPerMinute: options.protection.sandboxRequestsPerMinute ?? options.protection.requestsPerMinute,
    sandboxRefusalPauseMillis: options.protection.sandboxRefusalPauseMillis ?? SANDBOX_REFUSAL_PAUSE_MILLIS,
    failedAuthenticationsPerMinute: options.protection.failedAuthenticationsPerMinute,
    documentsPerMinute: options.protection.documentsPerMinute ?? DOCUMENTS_PER_MINUTE,
    printing: makePrintingQueue(PRINTING),
    logger,
    tracing: options.tracing ?? false
  }

  app.use(requestId)
  app.use(requestLog(logger))
  app.use(securityHeaders())
  app.use(requireUnambiguousHeaders)
  for (const middleware of corsFor(options.protection.corsOrigins)) app.use(middleware)

  /** Answers one operation's request with its program, run in the service's runtime. */
  const answer = (operation: Operation) => (request: Request, response: Response) => {
    const started = process.hrtime.bigint()
    observer?.started()
    const exchange = {
      operation,
      params: request.params as Record<string, string>,
      request,
      address: clientAddressKey((trustProxy === false ? request.socket.remoteAddress : request.ip) ?? "unknown"),
      requestId: requestIdOf(response.locals)
    }
    runtime.runCallback(requestProgram(exchange, settings), {
      onExit: (exit) => {
        // the program always answers: it stops without an answer only when the service stops under it
        const answer = Exit.isSuccess(exit) ? exit.value : SHUTTING_DOWN
        writeAnswer(request, response, answer)
        observer?.answered(
          operation.operationId,
          answer.status,
          Number(process.hrtime.bigint() - started) / 1e9,
          answer.environment
        )
      }
    })
  }

  /** Answers one request to a protocol endpoint with its program, run in the service's runtime. */
  const answerEndpoint = (endpoint: ProtocolEndpoint<Services>) => (request: Request, response: Response) => {
    const started = process.hrtime.bigint()
    observer?.started()
    const exchange = {
      endpoint,
      request,
      address: clientAddressKey((trustProxy === false ? request.socket.remoteAddress : request.ip) ?? "unknown"),
      requestId: requestIdOf(response.locals)
    }
    runtime.runCallback(endpointProgram(exchange, settings), {
      onExit: (exit) => {
        const answer = Exit.isSuccess(exit) ? exit.value : SHUTTING_DOWN
        writeAnswer(request, response, answer)
        observer?.answered(
          endpoint.name,
          answer.status,
          Number(process.hrtime.bigint() - started) / 1e9,
          answer.environment
        )
      }
    })
  }

  /** A router of routes; OPTIONS leaves it. */
  const routesRouter = () => {
    const router = express.Router({ caseSensitive: true, strict: true })
    // OPTIONS leaves this router: where no route takes it, a router answers it itself (200, text/plain, Allow),
    // before the 405 problem the other routes give (CORS, when on, answers it first)
    router.use((request, _response, next) => next(request.method === "OPTIONS" ? "router" : undefined))
    return router
  }

  /** The operations' routes, one per operation. */
  const operationRoutes = (operations: ReadonlyArray<Operation>) => {
    const router = routesRouter()
    for (const operation of operations) router[operation.method](routePath(operation.path), answer(operation))
    return router
  }

  app.use(operationRoutes(operations.filter((operation) => operation.servedAtRoot)))
  app.use(basePath || "/", operationRoutes(operations.filter((operation) => !operation.servedAtRoot)))
  const endpoints = options.endpoints ?? []
  if (endpoints.length > 0) {
    const router = routesRouter()
    for (const endpoint of endpoints) router.post(endpoint.path, answerEndpoint(endpoint))
    app.use(basePath || "/", router)
  }

  // the documents, their page, 404s and 405s
  const api = express.Router({ caseSensitive: true, strict: true })
  const document = JSON.stringify(
    openApiDocument(operations, { ...options.document, productNames: catalogue.productNames })
  )
  api.get("/openapi.json", (_request, response) => {
    response.type("application/json").send(document)
  })
  const events = JSON.stringify(asyncApiDocument(options.document.version, catalogue))
  api.get("/asyncapi.json", (_request, response) => {
    response.type("application/json").send(events)
  })
  api.use(apiReferencePage())
  const methodsByPath = { api: new Map<string, Array<string>>(), root: new Map<string, Array<string>>() }
  for (const operation of operations) {
    const path = routePath(operation.path)
    const methods = operation.servedAtRoot ? methodsByPath.root : methodsByPath.api
    methods.set(path, [...(methods.get(path) ?? []), operation.method.toUpperCase()])
  }
  for (const endpoint of endpoints) methodsByPath.api.set(endpoint.path, ["POST"])
  methodsByPath.api.set("/openapi.json", ["GET"])
  methodsByPath.api.set("/asyncapi.json", ["GET"])
  for (const path of API_REFERENCE_PATHS) methodsByPath.api.set(path, ["GET"])
  installMethodNotAllowed(api, methodsByPath.api)
  installMethodNotAllowed(app, methodsByPath.root)
  app.use(basePath || "/", api)
  installProblemFallbacks(app, logger)
  return app
}
