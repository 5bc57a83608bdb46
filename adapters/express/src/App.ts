/**
 * The Express application: request id, log line, authentication, JSON bodies,
 * the operations, the document and its page — and problem+json for every
 * failure, replacing each of Express's default answers.
 */
import type { CoreError } from "@kasko/core"
import { Cause, Exit, Option, type ManagedRuntime } from "effect"
import express, { type Express, type RequestHandler } from "express"
import type { Logger } from "pino"
import { createHash } from "node:crypto"
import { API_REFERENCE_PATHS, apiReferencePage } from "./ApiReferencePage.js"
import { isPrincipal, PRINCIPAL, type Authenticate, type Principal } from "./Authentication.js"
import { isServerFault, problemOfCoreError, RETRY_AFTER_SECONDS } from "./CoreErrorProblems.js"
import { openApiDocument, type DocumentSettings } from "./OpenApiDocument.js"
import { OPERATIONS, type Operation, type Services } from "./Operations.js"
import { jsonBody } from "./JsonBody.js"
import { constraintViolation, PROBLEMS, sendProblem } from "./Problem.js"
import {
  corsFor,
  limitFailedAuthentication,
  rateLimitPerKey,
  requireHost,
  securityHeaders,
  trustProxySetting,
  type ProtectionOptions
} from "./Protection.js"
import { installMethodNotAllowed, installProblemFallbacks } from "./ProblemHandlers.js"
import { requestId, requestIdOf } from "./RequestId.js"
import { runEffect } from "./RunEffect.js"
import { redact, requestLog } from "./RequestLog.js"

export interface AppOptions {
  /** The runtime holding the store, ids and tariffs: built once at start-up, never per request. */
  readonly runtime: ManagedRuntime.ManagedRuntime<Services, unknown>
  readonly logger: Logger
  readonly authenticate: Authenticate
  /** Largest accepted request body. */
  readonly bodyLimitBytes: number
  readonly protection: ProtectionOptions
  /** Longest an operation may wait (storage, say) before the request answers 503 instead of hanging. */
  readonly requestTimeoutMillis: number
  readonly document: DocumentSettings
}

/** `/insurance/car/quotes/{quote_id}` → `/insurance/car/quotes/:quote_id` */
const expressPath = (template: string) => template.replace(/\{(\w+)\}/g, ":$1")

const TIMED_OUT = Symbol("timed out")

/** The outcome, or TIMED_OUT once the budget is spent (the work may still finish; an Idempotency-Key makes the retry safe). */
const withinBudget = <A>(outcome: Promise<A>, budgetMillis: number): Promise<A | typeof TIMED_OUT> => {
  let timer: NodeJS.Timeout | undefined
  const expiry = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), budgetMillis)
  })
  return Promise.race([outcome, expiry]).finally(() => clearTimeout(timer))
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

/** The Idempotency-Key and a fingerprint of the body (SHA-256 of its JSON), or why the key is malformed. */
const idempotencyOf = (request: express.Request): { key: string; fingerprint: string } | undefined | Error => {
  const key = request.get("idempotency-key")
  if (key === undefined) return undefined
  if (!IDEMPOTENCY_KEY.test(key)) return new Error("must be 1–255 visible ASCII characters")
  return { key, fingerprint: createHash("sha256").update(JSON.stringify(request.body ?? null)).digest("hex") }
}

export const makeApp = (options: AppOptions): Express => {
  const { runtime, logger, authenticate } = options
  const app = express()
  app.disable("x-powered-by")
  app.disable("etag")
  app.set("case sensitive routing", true)
  app.set("strict routing", true)
  app.set("query parser", "simple")
  app.set("trust proxy", trustProxySetting(options.protection.trustProxy))

  app.use(requestId)
  app.use(requestLog(logger))
  app.use(securityHeaders())
  app.use(requireHost)
  for (const middleware of corsFor(options.protection.corsOrigins)) app.use(middleware)
  const limitFailures = limitFailedAuthentication(options.protection.failedAuthenticationsPerMinute)
  const limitRate = rateLimitPerKey(options.protection.requestsPerMinute)
  const admitJson = jsonBody(options.bodyLimitBytes)

  // credentials first, from the headers alone: a caller without them never gets a body read or decompressed
  const authenticating =
    (operation: Operation): RequestHandler =>
    async (request, response, next) => {
      const caller = await authenticate(request, operation)
      if (!isPrincipal(caller)) {
        sendProblem(response, caller)
        return
      }
      response.locals[PRINCIPAL] = caller
      next()
    }

  const run =
    (operation: Operation): RequestHandler =>
    async (request, response) => {
      const caller = response.locals[PRINCIPAL] as Principal
      const idempotency = operation.idempotent ? idempotencyOf(request) : undefined
      if (idempotency instanceof Error) {
        sendProblem(response, constraintViolation([{ field: "Idempotency-Key", message: idempotency.message }]))
        return
      }
      const outcome = runEffect(
        runtime,
        operation.handle({ params: request.params as Record<string, string>, body: request.body, partnerId: caller.partnerId, idempotency })
      )
      const exit = outcome instanceof Promise ? await withinBudget(outcome, options.requestTimeoutMillis) : outcome
      if (exit === TIMED_OUT) {
        logger.warn({ request_id: requestIdOf(response.locals), budget_ms: options.requestTimeoutMillis }, "request over its time budget")
        sendProblem(response, { problem: { ...PROBLEMS.serviceUnavailable, detail: "The request took too long; retry it (with its Idempotency-Key)." }, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } })
        return
      }
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

  // the partner API, mounted under the base path; probes stay at the root
  const api = express.Router({ caseSensitive: true, strict: true })
  const methodsByPath = { api: new Map<string, Array<string>>(), root: new Map<string, Array<string>>() }
  for (const operation of OPERATIONS) {
    const path = expressPath(operation.path)
    const handlers = [
      ...(operation.scope === undefined ? [] : [limitFailures]),
      authenticating(operation),
      ...(operation.scope === undefined ? [] : [limitRate]),
      ...(operation.requestBody === undefined ? [] : admitJson),
      run(operation)
    ]
    const [router, methods] = operation.servedAtRoot ? [app, methodsByPath.root] : [api, methodsByPath.api]
    router[operation.method](path, ...handlers)
    methods.set(path, [...(methods.get(path) ?? []), operation.method.toUpperCase()])
  }

  const document = JSON.stringify(openApiDocument(OPERATIONS, options.document))
  api.get("/openapi.json", (_request, response) => {
    response.type("application/json").send(document)
  })
  methodsByPath.api.set("/openapi.json", ["GET"])
  api.use(apiReferencePage())
  for (const path of API_REFERENCE_PATHS) methodsByPath.api.set(path, ["GET"])

  installMethodNotAllowed(api, methodsByPath.api)
  installMethodNotAllowed(app, methodsByPath.root)
  app.use(options.document.basePath || "/", api)
  installProblemFallbacks(app, logger)
  return app
}
