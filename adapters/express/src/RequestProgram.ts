/**
 * One request, as one Effect program: who is calling (and whether they may,
 * now) → the body → the operation → the answer, every failure mapped to its
 * problem+json. Credentials come from the headers before any body is read;
 * the rate limit counts only callers who proved who they are, and failed
 * attempts count against their address. Waiting on the identity provider or
 * on storage has a time budget: past it the request's fiber is interrupted —
 * what it waits on is let go of, a store write not yet committed never commits
 * — and the request answers 503 with Retry-After. (A timer interrupting the
 * fiber costs ~1.4 µs a wait, a deadline on the shared list of Deadlines.ts a
 * fraction of that; Effect 4's timeout, racing the wait against a sleep in two
 * fibers, ~6.5 µs when the wait is asynchronous, measured — enough to put the
 * runtime's share of quote creation back up by a fifth.)
 */
import { Authentication, type AuthenticationRefused, type CoreError, RateLimiter } from "@kasko/core"
import { Cause, Context, Data, Effect } from "effect"
import { parentSpanOf } from "./TraceContext.js"
import type { Deadlines } from "./Deadlines.js"
import { createHash } from "node:crypto"
import type { IncomingMessage } from "node:http"
import type { Logger } from "pino"
import { isServerFault, problemOfCoreError } from "./CoreErrorProblems.js"
import { DocumentAnswer, EncodedJson } from "./Operation.js"
import type { Operation, Services } from "./Operations.js"
import { constraintViolation, PROBLEM_CONTENT_TYPE, PROBLEMS, type ProblemAnswer } from "./Problem.js"
import { type PrintingQueue, PrintingQueueFull } from "./PrintingQueue.js"
import { readJsonBody, type BodyRefused } from "./RequestBody.js"
import { redact } from "./RequestLog.js"

/** What a request is answered with: a status, its own headers, and the body: JSON text, or a document's bytes. */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | Uint8Array
}

export interface ProgramSettings {
  readonly bodyLimitBytes: number
  /** Longest the program may wait on the identity provider, or on storage, before answering 503. */
  readonly budgetMillis: number
  /** The budget's deadlines (`budgetMillis` long), on one timer. */
  readonly deadlines: Deadlines
  readonly requestsPerMinute: number
  readonly failedAuthenticationsPerMinute: number
  /** Documents a key may have printed per minute (operations that `printsDocument`), besides its requests. */
  readonly documentsPerMinute: number
  /** Where those documents wait their turn to print. */
  readonly printing: PrintingQueue
  readonly logger: Logger
  /** Whether requests run in spans (traces exported): off, a request costs no span. */
  readonly tracing: boolean
}

/** A request's time budget: whether a wait outlasted it (and the request's fiber was interrupted for it). */
export interface Budget {
  exceeded: boolean
}

/** What one request brings: the operation it matched, its path parameters, the request, the caller's address and id. */
export interface Exchange {
  readonly operation: Operation
  readonly params: Readonly<Record<string, string>>
  readonly request: IncomingMessage
  readonly address: string
  readonly requestId: string
  readonly budget: Budget
  /** The request's trace, once its span began (tracing on), for its log line. */
  readonly trace: { traceId: string | undefined }
}

/** The request itself is unfit: the answer says why. */
class RequestRefused extends Data.TaggedError("RequestRefused")<{ readonly answer: ProblemAnswer }> {}

const MINUTE = 60_000
const AUTHENTICATION_SPAN = "kasko.authenticate"

/** Request spans skip Effect's stack capture (an Error per span); trace exporters do not read it. */
const NO_STACK = { captureStackTrace: false } as const
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

export const problemAnswer = (answer: ProblemAnswer): Answer => ({
  status: answer.problem.status,
  headers: { "Content-Type": `${PROBLEM_CONTENT_TYPE}; charset=utf-8`, ...answer.headers },
  body: JSON.stringify(answer.problem)
})

const secondsUntilReset = (window: RateLimiter.RateLimitWindow, now: number) =>
  Math.max(1, Math.ceil((window.resetsAt - now) / 1000))

const tooManyRequests = (window: RateLimiter.RateLimitWindow, now: number, headers: Record<string, string> = {}) =>
  new RequestRefused({
    answer: {
      problem: PROBLEMS.tooManyRequests,
      headers: { ...headers, "Retry-After": String(secondsUntilReset(window, now)) }
    }
  })

/** 429 for a key past its documents a minute: the problem names that limit, apart from the key's request limit. */
const tooManyDocuments = (window: RateLimiter.RateLimitWindow, now: number, headers: Record<string, string>) =>
  new RequestRefused({
    answer: {
      problem: {
        ...PROBLEMS.tooManyRequests,
        detail: `A subscription key may have ${window.limit} documents printed a minute (its document rate limit, apart from its request limit): retry in ${secondsUntilReset(window, now)} s.`
      },
      headers: { ...headers, "Retry-After": String(secondsUntilReset(window, now)) }
    }
  })

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

/** The draft-6 RateLimit headers of a window. */
const rateLimitHeaders = (window: RateLimiter.RateLimitWindow, now: number): Record<string, string> => ({
  "RateLimit-Limit": String(window.limit),
  "RateLimit-Remaining": String(Math.max(0, window.limit - window.used)),
  "RateLimit-Reset": String(Math.max(0, Math.ceil((window.resetsAt - now) / 1000)))
})

/** Interrupts the request's own fiber when `effect` still waits after the budget; the caller answers 503 for it (`overBudget`). */
const withinBudget =
  (budget: Budget, deadlines: Deadlines) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiber<A, E, R>((fiber) => {
      const deadline = deadlines.set(() => {
        budget.exceeded = true
        fiber.interruptUnsafe(fiber.id)
      })
      // a finalizer with no effect of its own: the runtime runs no extra step for it
      return Effect.onExitPrimitive(effect, () => {
        deadline.clear()
        return undefined
      })
    })

/**
 * The caller, admitted: not over its address's failed attempts, authenticated
 * for the operation's scope, within its key's rate limit. Answers the caller
 * and the RateLimit headers its answer carries. (Written as a chain, not a
 * generator: each generator step is a resumption the runtime pays for on
 * every request.)
 */
const admit = (exchange: Exchange, scope: Authentication.Scope, settings: ProgramSettings) =>
  Effect.contextWith((context: Context.Context<RateLimiter.RateLimiter | Authentication.Authentication>) => {
    const limiter = Context.get(context, RateLimiter.RateLimiter)
    const authentication = Context.get(context, Authentication.Authentication)
    const addressKey = `address:${exchange.address}`
    const headers = exchange.request.headers
    const credentials = {
      authorization: headers.authorization,
      subscriptionKey: headers["ocp-apim-subscription-key"] as string | undefined
    }
    // built only once the address is admitted: a locked-out address costs the identity provider nothing
    const authenticated = () =>
      authentication.authenticate(credentials, scope).pipe(
        settings.tracing ? Effect.withSpan(AUTHENTICATION_SPAN, undefined, NO_STACK) : (effect) => effect,
        withinBudget(exchange.budget, settings.deadlines),
        Effect.tapError((error) =>
          error._tag === "AuthenticationRefused"
            ? Effect.asVoid(limiter.hit(addressKey, settings.failedAuthenticationsPerMinute, MINUTE))
            : Effect.void
        )
      )
    return Effect.flatMap(limiter.peek(addressKey, settings.failedAuthenticationsPerMinute, MINUTE), (failures) =>
      failures.used >= failures.limit
        ? Effect.clockWith((clock) => Effect.fail(tooManyRequests(failures, clock.currentTimeMillisUnsafe())))
        : Effect.flatMap(authenticated(), (principal) =>
            Effect.flatMap(limiter.hit(`key:${principal.rateLimitKey}`, settings.requestsPerMinute, MINUTE), (window) =>
              Effect.clockWith((clock) => {
                const now = clock.currentTimeMillisUnsafe()
                const rateHeaders = rateLimitHeaders(window, now)
                if (RateLimiter.isExceeded(window)) return Effect.fail(tooManyRequests(window, now, rateHeaders))
                return exchange.operation.printsDocument
                  ? admitDocument(limiter, principal, window, now, settings)
                  : Effect.succeed({ principal, rateHeaders })
              })
            )
          )
    )
  })

/**
 * A key's document, within its documents a minute besides its requests: one partner asking for many cannot take
 * the printing from the others. Its answer's RateLimit headers are the window with the fewer requests left.
 */
const admitDocument = (
  limiter: RateLimiter.RateLimiter["Service"],
  principal: Authentication.Principal,
  requests: RateLimiter.RateLimitWindow,
  now: number,
  settings: ProgramSettings
) =>
  Effect.flatMap(
    limiter.hit(`documents:${principal.rateLimitKey}`, settings.documentsPerMinute, MINUTE),
    (documents) => {
      const tighter = documents.limit - documents.used < requests.limit - requests.used ? documents : requests
      const rateHeaders = rateLimitHeaders(tighter, now)
      return RateLimiter.isExceeded(documents)
        ? Effect.fail(tooManyDocuments(documents, now, rateLimitHeaders(documents, now)))
        : Effect.succeed({ principal, rateHeaders })
    }
  )

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
  return Effect.succeed({
    key,
    fingerprint: createHash("sha256")
      .update(JSON.stringify(body ?? null))
      .digest("hex")
  })
}

/** An admitted caller: who it is, and the RateLimit headers its answer carries. */
interface Admitted {
  readonly principal: Authentication.Principal
  readonly rateHeaders: Record<string, string>
}

/** A public caller within its address's per-minute limit (the one a subscription key has), with its RateLimit headers. */
const admitByAddress = (exchange: Exchange, settings: ProgramSettings) =>
  RateLimiter.RateLimiter.use((limiter) =>
    Effect.flatMap(limiter.hit(`public:${exchange.address}`, settings.requestsPerMinute, MINUTE), (window) =>
      Effect.clockWith((clock) => {
        const now = clock.currentTimeMillisUnsafe()
        const rateHeaders = rateLimitHeaders(window, now)
        return RateLimiter.isExceeded(window)
          ? Effect.fail(tooManyRequests(window, now, rateHeaders))
          : Effect.succeed({ principal: { partnerId: "", rateLimitKey: "" }, rateHeaders })
      })
    )
  )

/** The ETag of a document's version: weak, as the same version is the same content, not always the same bytes. */
const etagOf = (version: string) => `W/"${version.replace(/[^\x21\x23-\x7e]/g, "_")}"`

/** Whether If-None-Match names the ETag (`*`, or one of a list; weak comparison, RFC 9110 §13.1.2). */
const isNotModified = (ifNoneMatch: string | undefined, etag: string): boolean => {
  if (ifNoneMatch === undefined) return false
  const opaque = etag.replace(/^W\//, "")
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim())
    .some((tag) => tag === "*" || tag.replace(/^W\//, "") === opaque)
}

/**
 * The answer of a document: its bytes and media type, how caches may keep it, and its ETag (304 when the client
 * has it). One that caches may keep carries no RateLimit headers: a shared cache would hand this client's count to
 * every client it answers from its copy.
 */
const documentAnswer = (
  exchange: Exchange,
  document: DocumentAnswer,
  rateHeaders: Record<string, string> | undefined
): Answer => {
  const maxAge = exchange.operation.document?.maxAgeSeconds
  const etag = document.version === undefined ? undefined : etagOf(document.version)
  const headers: Record<string, string> = {
    "Cache-Control": maxAge === undefined ? "no-store" : `public, max-age=${maxAge}`,
    ...(etag === undefined ? {} : { ETag: etag }),
    ...(maxAge === undefined ? rateHeaders : {})
  }
  if (etag !== undefined && isNotModified(exchange.request.headers["if-none-match"], etag))
    return { status: 304, headers, body: "" }
  return {
    status: 200,
    headers: {
      "Content-Type": document.mediaType,
      "Content-Disposition": `inline; filename="${document.fileName.replace(/[^\w.-]/g, "_")}"`,
      ...headers
    },
    body: document.bytes
  }
}

type Failure = CoreError | AuthenticationRefused | BodyRefused | RequestRefused

/** The answer to a failure, logging the service's own faults. */
const answerOfFailure =
  (exchange: Exchange, settings: ProgramSettings) =>
  (failure: Failure): Effect.Effect<Answer> =>
    Effect.sync(() => {
      switch (failure._tag) {
        case "BodyRefused":
        case "RequestRefused":
          return problemAnswer(failure.answer)
        default:
          if (isServerFault(failure))
            settings.logger.error(
              { request_id: exchange.requestId, error: redact(JSON.stringify(failure)) },
              "storage or pricing failure"
            )
          return problemAnswer(problemOfCoreError(failure))
      }
    })

/** An operation's handling, in its turn to print when it prints a document (`printsDocument`); as it is otherwise. */
const inTurnWhenPrinting = <A, E, R>(
  operation: Operation,
  settings: ProgramSettings,
  handling: Effect.Effect<A, E, R>
): Effect.Effect<A, E | RequestRefused, R> =>
  operation.printsDocument
    ? settings.printing
        .inTurn(handling)
        .pipe(
          Effect.mapError((error) => (error instanceof PrintingQueueFull ? printingQueueFull(error) : (error as E)))
        )
    : handling

/** The program of one request: always an answer, never a failure. */
export const requestProgram = (
  exchange: Exchange,
  settings: ProgramSettings
): Effect.Effect<Answer, never, Services> => {
  const { operation, request } = exchange
  const handled = (admitted: Admitted | undefined) =>
    Effect.flatMap(
      operation.requestBody === undefined ? Effect.undefined : readJsonBody(request, settings.bodyLimitBytes),
      (body) =>
        Effect.flatMap(idempotencyOf(exchange, body), (idempotency) =>
          inTurnWhenPrinting(
            operation,
            settings,
            operation.handle({
              params: exchange.params,
              body,
              partnerId: admitted?.principal.partnerId ?? "",
              idempotency
            })
          ).pipe(
            withinBudget(exchange.budget, settings.deadlines),
            Effect.map(
              (value): Answer =>
                value instanceof DocumentAnswer
                  ? documentAnswer(exchange, value, admitted?.rateHeaders)
                  : {
                      status: 200,
                      headers: {
                        "Content-Type": "application/json; charset=utf-8",
                        ...(operation.noStore ? { "Cache-Control": "no-store" } : {}),
                        ...admitted?.rateHeaders
                      },
                      body: value instanceof EncodedJson ? value.text : JSON.stringify(value)
                    }
            )
          )
        )
    )
  // the request was checked before its program (Host: Protection.ts `hostRefusal`)
  const program =
    operation.scope !== undefined
      ? Effect.flatMap(admit(exchange, operation.scope, settings), handled)
      : operation.countedByAddress
        ? Effect.flatMap(admitByAddress(exchange, settings), handled)
        : handled(undefined)
  const answered = program.pipe(
    Effect.catch(answerOfFailure(exchange, settings)),
    Effect.catchCause((cause) =>
      Effect.sync(() => {
        settings.logger.error({ request_id: exchange.requestId, error: redact(Cause.pretty(cause)) }, "defect")
        return problemAnswer({ problem: PROBLEMS.internal })
      })
    )
  )
  return settings.tracing ? inRequestSpan(exchange, answered) : answered
}

/** The request's span (its trace continued from a W3C `traceparent` header), with its status and trace id. */
const inRequestSpan = (
  exchange: Exchange,
  answered: Effect.Effect<Answer, never, Services>
): Effect.Effect<Answer, never, Services> => {
  const { operation } = exchange
  const parent = parentSpanOf(exchange.request.headers.traceparent)
  return Effect.gen(function* () {
    const span = yield* Effect.orDie(Effect.currentSpan)
    exchange.trace.traceId = span.traceId
    const answer = yield* answered
    span.attribute("http.response.status_code", answer.status)
    return answer
  }).pipe(
    Effect.withSpan(
      `${operation.method.toUpperCase()} ${operation.path}`,
      {
        kind: "server",
        ...(parent === undefined ? {} : { parent }),
        attributes: {
          "http.request.method": operation.method.toUpperCase(),
          "http.route": operation.path,
          "kasko.operation": operation.operationId,
          "kasko.request_id": exchange.requestId
        }
      },
      NO_STACK
    )
  )
}
