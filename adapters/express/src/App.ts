/**
 * The Express application. Each operation is an Express route whose request
 * runs as one Effect program in the service's runtime (RequestProgram);
 * Express routes it and writes the answer it comes back with. Everything else — the
 * document, its page, 404s, 405s, Express's own errors — answers
 * problem+json through Express's routes, with the same request id, log line
 * and security headers.
 */
import { asyncApiDocument } from "./AsyncApiDocument.js"
import { Effect, type Exit, Fiber, type ManagedRuntime, Scope } from "effect"
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from "express"
import { match } from "path-to-regexp"
import type { Logger } from "pino"
import { API_REFERENCE_PATHS, apiReferencePage } from "./ApiReferencePage.js"
import { openApiDocument, type DocumentSettings } from "./OpenApiDocument.js"
import { OPERATIONS, type Operation, type Services } from "./Operations.js"
import { constraintViolation, PROBLEMS, type ProblemAnswer } from "./Problem.js"
import { installMethodNotAllowed, installProblemFallbacks } from "./ProblemHandlers.js"
import {
  clientAddressKey,
  corsFor,
  hostRefusal,
  requireHost,
  securityHeaderList,
  securityHeaders,
  trustProxySetting,
  type ProtectionOptions
} from "./Protection.js"
import { requestId, requestIdFor } from "./RequestId.js"
import { redact, requestLog } from "./RequestLog.js"
import { problemAnswer, requestProgram, type Answer, type ProgramSettings } from "./RequestProgram.js"
import { overBudget, RETRY_AFTER_SECONDS } from "./CoreErrorProblems.js"
import { makeDeadlines } from "./Deadlines.js"
import { makePrintingQueue } from "./PrintingQueue.js"

/** Quote documents one subscription key may have printed per minute unless `protection.documentsPerMinute` says. */
const DOCUMENTS_PER_MINUTE = 60
// two at a time: one looks its quote up while the other is laid out (which never overlap, on one thread); 32
// waiting is ~0.2 s of printing
const PRINTING = { atOnce: 2, waiting: 32 } as const

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
}

/** What watches the partner API's requests: one `started`, then one `answered`, per operation request. */
export interface RequestObserver {
  readonly started: () => void
  readonly answered: (operationId: string, status: number, seconds: number) => void
}

// what an interrupted request answers: its wait outlasted the time budget, or the service is stopping
const OVER_BUDGET = problemAnswer(overBudget)
const SHUTTING_DOWN = problemAnswer({
  problem: PROBLEMS.serviceUnavailable,
  headers: { "Retry-After": String(RETRY_AFTER_SECONDS) }
})
const MALFORMED_PATH = constraintViolation([{ field: "path", message: "has malformed percent-encoding" }])

/** An OpenAPI path template (`/quotes/{quote_id}`) as an Express route path (`/quotes/:quote_id`). */
const routePath = (template: string): string => template.replace(/\{(\w+)\}/g, ":$1")

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
  // every operation's answer starts with these, as the flat [name, value, …] list writeHead takes without a header map
  const answerHeaders = headers.flat()
  // a document's (a PDF's): a browser shows a PDF in its viewer, a plugin, which `object-src 'none'` would block
  const documentAnswerHeaders = headers.flatMap(([name, value]) =>
    name.toLowerCase() === "content-security-policy"
      ? [name, value.replace("object-src 'none'", "object-src 'self'")]
      : [name, value]
  )
  const settings: ProgramSettings = {
    bodyLimitBytes: options.bodyLimitBytes,
    budgetMillis: options.requestTimeoutMillis,
    deadlines: makeDeadlines(options.requestTimeoutMillis),
    requestsPerMinute: options.protection.requestsPerMinute,
    failedAuthenticationsPerMinute: options.protection.failedAuthenticationsPerMinute,
    documentsPerMinute: options.protection.documentsPerMinute ?? DOCUMENTS_PER_MINUTE,
    printing: makePrintingQueue(PRINTING),
    logger,
    tracing: options.tracing ?? false
  }

  // Request fibers run on the runtime's built services and are tracked here, in a set the runtime's disposal
  // interrupts first: ManagedRuntime's own tracking adds a scope finalizer per fiber, ~2 µs of every request
  // that waits (bench/profile.mjs). Before the services are built, and after disposal, runCallback does it.
  const inFlight = new Set<Fiber.Fiber<Answer>>()
  Effect.runSync(
    Scope.addFinalizer(
      runtime.scope,
      Effect.suspend(() => Fiber.interruptAll(inFlight))
    )
  )
  const runRequest = (
    program: Effect.Effect<Answer, never, Services>,
    onExit: (exit: Exit.Exit<Answer, unknown>) => void
  ) => {
    const context = runtime.cachedContext
    if (context === undefined) return void runtime.runCallback(program, { onExit })
    const fiber = Effect.runForkWith(context)(program)
    const exit = fiber.pollUnsafe()
    if (exit !== undefined) return onExit(exit)
    inFlight.add(fiber)
    fiber.addObserver((ended) => {
      inFlight.delete(fiber)
      onExit(ended)
    })
  }

  const observer = options.observer
  const writeAnswer = (
    request: Request,
    response: Response,
    answer: Answer,
    id: string,
    started: bigint,
    operationId: string,
    traceId?: string
  ) => {
    const list = [...(typeof answer.body === "string" ? answerHeaders : documentAnswerHeaders), "X-Request-Id", id]
    // a 304 has no body, and no length of the one it stands for
    if (answer.status !== 304) list.push("Content-Length", String(Buffer.byteLength(answer.body)))
    for (const name in answer.headers) list.push(name, answer.headers[name]!)
    // a body whose reading began and stopped before its end (too large once decompressed, undecodable, over the
    // time budget) leaves the rest of it on the connection, where Node would parse it as the next request: close
    // it. A body never read at all (credentials refused first) Node discards itself, keeping the connection.
    if (request.readableDidRead && !request.readableEnded) list.push("Connection", "close")
    response.writeHead(answer.status, list)
    response.end(answer.body)
    const durationMillis = Number(process.hrtime.bigint() - started) / 1e6
    observer?.answered(operationId, answer.status, durationMillis / 1000)
    logger.info(
      {
        request_id: id,
        method: request.method,
        path: redact(request.url),
        status: answer.status,
        duration_ms: durationMillis,
        ...(traceId === undefined ? {} : { trace_id: traceId })
      },
      "request"
    )
  }

  const writeRefusal = (
    request: Request,
    response: Response,
    refused: ProblemAnswer,
    id: string,
    started: bigint,
    operationId: string
  ) => {
    logger.warn({ request_id: id, status: refused.problem.status }, "refused a malformed request")
    writeAnswer(request, response, problemAnswer(refused), id, started, operationId)
  }

  for (const middleware of corsFor(options.protection.corsOrigins)) app.use(middleware)

  /** Answers one operation's request: one program, run in the service's runtime. */
  const answer = (operation: Operation, request: Request, response: Response) => {
    const started = process.hrtime.bigint()
    const id = requestIdFor(request.headers["x-request-id"])
    const operationId = operation.operationId
    observer?.started()
    // refused before its program: HTTP/1.1 without Host
    const missingHost = hostRefusal(request)
    if (missingHost !== undefined) return writeRefusal(request, response, missingHost, id, started, operationId)
    const address = clientAddressKey((trustProxy === false ? request.socket.remoteAddress : request.ip) ?? "unknown")
    const budget = { exceeded: false }
    const trace: { traceId: string | undefined } = { traceId: undefined }
    runRequest(
      requestProgram(
        { operation, params: request.params as Record<string, string>, request, address, requestId: id, budget, trace },
        settings
      ),
      (exit) => {
        if (exit._tag === "Success")
          return writeAnswer(request, response, exit.value, id, started, operationId, trace.traceId)
        // the program never fails: it was interrupted, for its time budget or because the service is stopping
        if (budget.exceeded)
          logger.warn({ request_id: id, budget_ms: settings.budgetMillis }, "request over its time budget")
        writeAnswer(
          request,
          response,
          budget.exceeded ? OVER_BUDGET : SHUTTING_DOWN,
          id,
          started,
          operationId,
          trace.traceId
        )
      }
    )
  }

  /**
   * The operations' routes, one per operation. Express's router refuses a path parameter that does not
   * percent-decode before any route runs; the router's error handler answers it as that operation would (400
   * naming the path), finding the operation by its template over the undecoded path.
   */
  const operationRoutes = (operations: ReadonlyArray<Operation>) => {
    const router = express.Router({ caseSensitive: true, strict: true })
    // OPTIONS leaves this router: where no route takes it, a router answers it itself (200, text/plain, Allow),
    // before the request id, headers and 405 problem the other routes give (CORS, when on, answers it first)
    router.use((request, _response, next) => next(request.method === "OPTIONS" ? "router" : undefined))
    for (const operation of operations)
      router[operation.method](routePath(operation.path), (request, response) => answer(operation, request, response))
    const templates = operations.map((operation) => ({
      operation,
      method: operation.method.toUpperCase(),
      matches: match(routePath(operation.path), { decode: false })
    }))
    const undecodablePath: ErrorRequestHandler = (error, request, response, next) => {
      const method = request.method === "HEAD" ? "GET" : request.method
      const refused =
        error instanceof URIError
          ? templates.find((template) => template.method === method && template.matches(request.path) !== false)
          : undefined
      // an undecodable path of no operation (another method, say) goes on to the other routes, whose
      // middleware gives it its request id, headers and log line before the fallback answers 400
      if (refused === undefined) return error instanceof URIError ? next() : next(error)
      const started = process.hrtime.bigint()
      observer?.started()
      writeRefusal(
        request,
        response,
        MALFORMED_PATH,
        requestIdFor(request.headers["x-request-id"]),
        started,
        refused.operation.operationId
      )
    }
    router.use(undecodablePath)
    return router
  }

  app.use(operationRoutes(OPERATIONS.filter((operation) => operation.servedAtRoot)))
  app.use(basePath || "/", operationRoutes(OPERATIONS.filter((operation) => !operation.servedAtRoot)))

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
  const events = JSON.stringify(asyncApiDocument(options.document.version))
  api.get("/asyncapi.json", (_request, response) => {
    response.type("application/json").send(events)
  })
  api.use(apiReferencePage())
  const methodsByPath = { api: new Map<string, Array<string>>(), root: new Map<string, Array<string>>() }
  for (const operation of OPERATIONS) {
    const path = routePath(operation.path)
    const methods = operation.servedAtRoot ? methodsByPath.root : methodsByPath.api
    methods.set(path, [...(methods.get(path) ?? []), operation.method.toUpperCase()])
  }
  methodsByPath.api.set("/openapi.json", ["GET"])
  methodsByPath.api.set("/asyncapi.json", ["GET"])
  for (const path of API_REFERENCE_PATHS) methodsByPath.api.set(path, ["GET"])
  installMethodNotAllowed(api, methodsByPath.api)
  installMethodNotAllowed(app, methodsByPath.root)
  app.use(basePath || "/", api)
  installProblemFallbacks(app, logger)
  return app
}
