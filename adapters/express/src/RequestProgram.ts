/**
 * One request, as one Effect program that always answers: who is calling
 * (Admission) → the body → the operation → its reply encoded, every failure
 * mapped to its problem+json. Waiting on the identity provider or on storage
 * has a time budget: past it the wait is interrupted — a store write not yet
 * committed never commits — and the request answers 503 with Retry-After.
 */
import type { Authentication, CoreError } from "@kasko/core"
import { Cause, Effect } from "effect"
import { createHash } from "node:crypto"
import type { IncomingMessage } from "node:http"
import type { Logger } from "pino"
import type { Sandbox } from "@kasko/core/administration"
import { admit, admitByAddress, type Admitted, type AdmissionSettings, environmentOf, NO_STACK } from "./Admission.js"
import { type Answer, documentAnswer, jsonAnswer, problemAnswer, RequestRefused, sandboxJsonAnswer } from "./Answers.js"
import { isServerFault, overBudget, problemOfCoreError } from "./CoreErrorProblems.js"
import type { Reply } from "./Operation.js"
import type { Operation, Services } from "./Operations.js"
import { constraintViolation, PROBLEMS } from "./Problem.js"
import type { PrintingQueue, PrintingQueueFull, PrintingShareTaken } from "./PrintingQueue.js"
import { readJsonBody, type BodyRefused } from "./RequestBody.js"
import { redact } from "./RequestLog.js"
import type { ProtocolEndpoint } from "./ProtocolEndpoint.js"
import { parentSpanOf } from "./TraceContext.js"

export interface ProgramSettings extends AdmissionSettings {
  readonly bodyLimitBytes: number
  /** Longest the program may wait on the identity provider, or on storage, before answering 503. */
  readonly budgetMillis: number
  /** Where documents wait their turn to print. */
  readonly printing: PrintingQueue
  readonly logger: Logger
}

/** What one request brings: the operation it matched, its path parameters, the request, the caller's address and id. */
export interface Exchange {
  readonly operation: Operation
  readonly params: Readonly<Record<string, string>>
  readonly request: IncomingMessage
  readonly address: string
  readonly requestId: string
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

/** The request's Idempotency-Key with a fingerprint of its body (SHA-256 of its JSON), or none. */
const idempotencyOf = (exchange: Exchange, body: unknown) => {
  const key = exchange.request.headers["idempotency-key"]
  if (!exchange.operation.idempotent || key === undefined) return Effect.succeed(undefined)
  if (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key)) {
    return Effect.fail(
      new RequestRefused({
        answer: constraintViolation([{ field: "Idempotency-Key", message: "must be 1–255 visible ASCII characters" }])
      })
    )
  }
  const fingerprint = createHash("sha256")
    .update(JSON.stringify(body ?? null))
    .digest("hex")
  return Effect.succeed({ key, fingerprint })
}

// seconds a request refused for a full printing queue is asked to wait: the queue empties in about a fifth of that
const PRINTING_RETRY_AFTER_SECONDS = 1

/** 503 for a document that found the printing queue full: the service as a whole is asked for more than it prints. */
const printingQueueFull = (full: PrintingQueueFull) =>
  new RequestRefused({
    answer: {
      problem: {
        ...PROBLEMS.serviceUnavailable,
        detail: `Documents are printed a few at a time and ${full.waiting} are waiting their turn: retry in ${PRINTING_RETRY_AFTER_SECONDS} s.`
      },
      headers: { "Retry-After": String(PRINTING_RETRY_AFTER_SECONDS) }
    }
  })

/** 429 for a partner whose share of the printing queue is waiting already: its own documents are ahead of this one. */
const printingShareTaken = (taken: PrintingShareTaken) =>
  new RequestRefused({
    answer: {
      problem: {
        ...PROBLEMS.tooManyRequests,
        detail: `${taken.waiting} of this partner's documents are waiting their turn to print, as many as one partner may have waiting: retry in ${PRINTING_RETRY_AFTER_SECONDS} s.`
      },
      headers: { "Retry-After": String(PRINTING_RETRY_AFTER_SECONDS) }
    }
  })

/** The reply as its answer: JSON encoded by its Schema, or a document's bytes. */
const answerOf = (exchange: Exchange, reply: Reply, admitted: Admitted | undefined): Answer => {
  const { operation } = exchange
  const rateHeaders = admitted?.rateHeaders ?? {}
  if (reply._tag === "DocumentReply")
    return documentAnswer(reply, exchange.request.headers, operation.document?.maxAgeSeconds, rateHeaders)
  const headers = operation.noStore ? { "Cache-Control": "no-store", ...rateHeaders } : rateHeaders
  return admitted?.principal.environment === "sandbox" ? sandboxJsonAnswer(reply, headers) : jsonAnswer(reply, headers)
}

type Failure = CoreError | BodyRefused | RequestRefused

/** The answer to a failure, logging the service's own faults. */
const answerOfFailure =
  (requestId: string, settings: ProgramSettings) =>
  (failure: Failure): Effect.Effect<Answer> =>
    Effect.sync(() => {
      if (failure._tag === "BodyRefused" || failure._tag === "RequestRefused") return problemAnswer(failure.answer)
      if (isServerFault(failure))
        settings.logger.error(
          { request_id: requestId, error: redact(JSON.stringify(failure)) },
          "storage or pricing failure"
        )
      return problemAnswer(problemOfCoreError(failure))
    })

/** A request's program made to always answer: a failure as its problem, a defect as a 500 (logged). */
const alwaysAnswering =
  (requestId: string, settings: ProgramSettings) =>
  <R>(program: Effect.Effect<Answer, Failure, R>): Effect.Effect<Answer, never, R> =>
    program.pipe(
      Effect.catch(answerOfFailure(requestId, settings)),
      Effect.catchCause((cause) =>
        Effect.sync(() => {
          settings.logger.error({ request_id: requestId, error: redact(Cause.pretty(cause)) }, "defect")
          return problemAnswer({ problem: PROBLEMS.internal })
        })
      )
    )

/** A wait within the request's time budget: past it, interrupted and answered 503 (RequestRefused). */
const budgetOf =
  (requestId: string, settings: ProgramSettings) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.timeoutOrElse(effect, {
      duration: settings.budgetMillis,
      orElse: () =>
        Effect.andThen(
          Effect.sync(() =>
            settings.logger.warn(
              { request_id: requestId, budget_ms: settings.budgetMillis },
              "request over its time budget"
            )
          ),
          Effect.fail(new RequestRefused({ answer: overBudget }))
        )
    })

/**
 * Where a request's program notes the environment of the key it was authenticated with, to name it on the answer
 * (`Answer.environment`, which the metrics count the request under) — whether it was served or refused afterwards.
 */
const environmentNoted = () => {
  let environment: Sandbox.Environment | undefined
  return {
    identified: (principal: Authentication.Principal) => {
      environment = environmentOf(principal)
    },
    named: (answer: Answer): Answer => (environment === undefined ? answer : { ...answer, environment })
  }
}

/** The program of one request: always an answer, never a failure. */
export const requestProgram = (
  exchange: Exchange,
  settings: ProgramSettings
): Effect.Effect<Answer, never, Services> => {
  const { operation, request } = exchange
  const withinBudget = budgetOf(exchange.requestId, settings)
  const caller = { headers: request.headers, address: exchange.address }
  const noted = environmentNoted()
  const answered = Effect.gen(function* () {
    const admitted =
      operation.scope !== undefined
        ? yield* admit(
            caller,
            operation.scope,
            operation.printsDocument === true,
            settings,
            withinBudget,
            noted.identified
          )
        : operation.countedByAddress
          ? yield* admitByAddress(caller, settings)
          : undefined
    const body = operation.requestBody === undefined ? undefined : yield* readJsonBody(request, settings.bodyLimitBytes)
    const idempotency = yield* idempotencyOf(exchange, body)
    const handling = operation.handle({
      params: exchange.params,
      body,
      partnerId: admitted?.principal.partnerId ?? "",
      products: admitted?.principal.products,
      idempotency,
      headers: request.headers
    })
    const reply = yield* withinBudget(
      operation.printsDocument
        ? settings.printing.inTurn(admitted?.principal.partnerId ?? "", handling).pipe(
            Effect.catchTags({
              PrintingQueueFull: (full) => Effect.fail(printingQueueFull(full)),
              PrintingShareTaken: (taken) => Effect.fail(printingShareTaken(taken))
            })
          )
        : handling
    )
    return answerOf(exchange, reply, admitted)
  }).pipe(alwaysAnswering(exchange.requestId, settings), Effect.map(noted.named))
  return settings.tracing
    ? inRequestSpan({ method: operation.method, path: operation.path, name: operation.operationId }, exchange, answered)
    : answered
}

/** What one request to a protocol endpoint brings: the endpoint, the request, the caller's address and id. */
export interface EndpointExchange<R> {
  readonly endpoint: ProtocolEndpoint<R>
  readonly request: IncomingMessage
  readonly address: string
  readonly requestId: string
}

/**
 * The program of one request to a protocol endpoint (the MCP endpoint): its screen (403), the operations'
 * admission for any of its scopes, the bounded JSON body, then its answer within the time budget, carrying
 * `Cache-Control: no-store` and the key's RateLimit headers. Always an answer, never a failure.
 */
export const endpointProgram = <R>(
  exchange: EndpointExchange<R>,
  settings: ProgramSettings
): Effect.Effect<Answer, never, R | Services> => {
  const { endpoint, request } = exchange
  const withinBudget = budgetOf(exchange.requestId, settings)
  const noted = environmentNoted()
  const answered = Effect.gen(function* () {
    const refusal = endpoint.screen?.(request.headers)
    if (refusal !== undefined) return problemAnswer({ problem: { ...PROBLEMS.forbidden, detail: refusal } })
    const caller = { headers: request.headers, address: exchange.address }
    const admitted = yield* admit(caller, endpoint.scopes, false, settings, withinBudget, noted.identified)
    const body = yield* readJsonBody(request, settings.bodyLimitBytes)
    const answer = yield* withinBudget(
      endpoint.answer({
        body,
        headers: request.headers,
        partnerId: admitted.principal.partnerId,
        products: admitted.principal.products,
        environment: environmentOf(admitted.principal),
        requestId: exchange.requestId
      })
    )
    return {
      status: answer.status,
      headers: { "Cache-Control": "no-store", ...admitted.rateHeaders, ...answer.headers },
      body: answer.body
    }
  }).pipe(alwaysAnswering(exchange.requestId, settings), Effect.map(noted.named))
  return settings.tracing
    ? inRequestSpan({ method: "post", path: endpoint.path, name: endpoint.name }, exchange, answered)
    : answered
}

/** The route a span names: its method, its path template, and the operation's (or endpoint's) name. */
interface SpanRoute {
  readonly method: string
  readonly path: string
  readonly name: string
}

/** The request's span (its trace continued from a W3C `traceparent` header), with its status; the answer names its trace. */
const inRequestSpan = <R>(
  route: SpanRoute,
  exchange: { readonly request: IncomingMessage; readonly requestId: string },
  answered: Effect.Effect<Answer, never, R>
): Effect.Effect<Answer, never, R> => {
  const parent = parentSpanOf(exchange.request.headers.traceparent)
  return Effect.gen(function* () {
    const span = yield* Effect.orDie(Effect.currentSpan)
    const answer = yield* answered
    span.attribute("http.response.status_code", answer.status)
    return { ...answer, traceId: span.traceId }
  }).pipe(
    Effect.withSpan(
      `${route.method.toUpperCase()} ${route.path}`,
      {
        kind: "server",
        ...(parent === undefined ? {} : { parent }),
        attributes: {
          "http.request.method": route.method.toUpperCase(),
          "http.route": route.path,
          "kasko.operation": route.name,
          "kasko.request_id": exchange.requestId
        }
      },
      NO_STACK
    )
  )
}
