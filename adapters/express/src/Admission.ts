/**
 * Who may be served now: a caller authenticated for the operation's scope
 * (its address's failed attempts counted, and refused with 429 past their
 * limit), within its key's rate limit (and its documents' limit, for an
 * operation that prints one); a public caller within its address's limit. Credentials come from the headers before
 * any body is read, and only callers who proved who they are count against a
 * key. Each refusal is an answer with its RateLimit and Retry-After headers.
 */
import { Authentication, AuthenticationRefused, type CoreError, RateLimiter } from "@kasko/core"
import type { Sandbox } from "@kasko/core/administration"
import { Duration, Effect } from "effect"
import type { IncomingHttpHeaders } from "node:http"
import { RequestRefused } from "./Answers.js"
import { PROBLEMS } from "./Problem.js"

const MINUTE = 60_000
const AUTHENTICATION_SPAN = "kasko.authenticate"
/** Request spans skip Effect's stack capture (an Error per span); trace exporters do not read it. */
export const NO_STACK = { captureStackTrace: false } as const

export interface AdmissionSettings {
  readonly requestsPerMinute: number
  /** Requests a sandbox key may make per minute. */
  readonly sandboxRequestsPerMinute: number
  /** How long a sandbox key past its limit waits for its 429: its loop slowed, production's capacity kept. */
  readonly sandboxRefusalPauseMillis: number
  readonly failedAuthenticationsPerMinute: number
  /** Documents a key may have printed per minute (operations that `printsDocument`), besides its requests. */
  readonly documentsPerMinute: number
  /** Whether requests run in spans (traces exported): off, a request costs no span. */
  readonly tracing: boolean
}

/** Who is calling, as the request's headers and connection say. */
export interface Caller {
  readonly headers: IncomingHttpHeaders
  /** The client's address, as its failed attempts are counted (`clientAddressKey`). */
  readonly address: string
}

/** An admitted caller: who it is, and the RateLimit headers its answer carries. */
export interface Admitted {
  readonly principal: Authentication.Principal
  readonly rateHeaders: Record<string, string>
}

/** The environment a principal's key works in. */
export const environmentOf = (principal: Authentication.Principal): Sandbox.Environment =>
  principal.environment ?? "production"

/** A public caller: no principal. */
const PUBLIC_PRINCIPAL: Authentication.Principal = { partnerId: "", rateLimitKey: "" }

const secondsUntilReset = (window: RateLimiter.RateLimitWindow, now: number) =>
  Math.max(1, Math.ceil((window.resetsAt - now) / 1000))

/** The draft-6 RateLimit headers of a window. */
const rateLimitHeaders = (window: RateLimiter.RateLimitWindow, now: number): Record<string, string> => ({
  "RateLimit-Limit": String(window.limit),
  "RateLimit-Remaining": String(Math.max(0, window.limit - window.used)),
  "RateLimit-Reset": String(Math.max(0, Math.ceil((window.resetsAt - now) / 1000)))
})

const tooManyRequests = (window: RateLimiter.RateLimitWindow, now: number, headers: Record<string, string> = {}) =>
  new RequestRefused({
    answer: {
      problem: PROBLEMS.tooManyRequests,
      headers: { ...headers, "Retry-After": String(secondsUntilReset(window, now)) }
    }
  })

/** 429 for a key past its documents a minute: the problem names that limit, apart from the key's request limit. */
const tooManyDocuments = (window: RateLimiter.RateLimitWindow, now: number) =>
  new RequestRefused({
    answer: {
      problem: {
        ...PROBLEMS.tooManyRequests,
        detail: `A subscription key may have ${window.limit} documents printed a minute (its document rate limit, apart from its request limit): retry in ${secondsUntilReset(window, now)} s.`
      },
      headers: { ...rateLimitHeaders(window, now), "Retry-After": String(secondsUntilReset(window, now)) }
    }
  })

type Credentials = Parameters<Authentication.Authentication["Service"]["authenticate"]>[0]

const lacksScope = (error: unknown): error is AuthenticationRefused =>
  error instanceof AuthenticationRefused && error.reason === "insufficient_scope"

/**
 * The principal of credentials carrying any of `scopes` (the first they carry, tried in order): credentials refused
 * for another reason are refused at the first; credentials carrying none of them are refused naming them all.
 */
const authenticateForAny = (
  authentication: Authentication.Authentication["Service"],
  credentials: Credentials,
  [first, ...others]: readonly [Authentication.Scope, ...Array<Authentication.Scope>]
) =>
  others.length === 0
    ? authentication.authenticate(credentials, first)
    : others
        .reduce(
          (attempt, scope) =>
            Effect.catchIf(attempt, lacksScope, () => authentication.authenticate(credentials, scope)),
          authentication.authenticate(credentials, first)
        )
        .pipe(
          Effect.mapError((refused) =>
            lacksScope(refused)
              ? new AuthenticationRefused({
                  reason: "insufficient_scope",
                  description: `the token lacks every scope this endpoint admits: ${[first, ...others].join(", ")}`,
                  scope: [first, ...others].join(" ")
                })
              : refused
          )
        )

/**
 * The caller, admitted for an operation of `scope` (or an endpoint admitting any of several scopes): authenticated
 * (within the time budget `withinBudget` gives the wait on the identity provider) — a refusal counts against its
 * address, and past the address's failed attempts a minute is answered 429 — within its key's rate limit, and
 * within its documents a minute when the operation `printsDocument`. `identified` hears who it is as soon as its
 * credentials verify, before its rate limits are asked.
 */
export const admit = (
  caller: Caller,
  scope: Authentication.Scope | readonly [Authentication.Scope, ...Array<Authentication.Scope>],
  printsDocument: boolean,
  settings: AdmissionSettings,
  withinBudget: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | RequestRefused, R>,
  identified: (principal: Authentication.Principal) => void = () => undefined
): Effect.Effect<Admitted, CoreError | RequestRefused, RateLimiter.RateLimiter | Authentication.Authentication> =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter.RateLimiter
    const authentication = yield* Authentication.Authentication
    const addressKey = `address:${caller.address}`
    const credentials = {
      authorization: caller.headers.authorization,
      subscriptionKey: caller.headers["ocp-apim-subscription-key"] as string | undefined
    }
    // a failure counts against the address, and one past the address's failed attempts a minute is answered
    // 429; a request whose credentials verify is never shut out by its address (a good partner behind the same
    // NAT as a bad client), so nothing is counted or looked up for it
    const principal = yield* authenticateForAny(
      authentication,
      credentials,
      typeof scope === "string" ? [scope] : scope
    ).pipe(
      settings.tracing ? Effect.withSpan(AUTHENTICATION_SPAN, undefined, NO_STACK) : (effect) => effect,
      withinBudget,
      Effect.catchTag("AuthenticationRefused", (refused) =>
        Effect.flatMap(
          limiter.hit(addressKey, settings.failedAuthenticationsPerMinute, MINUTE),
          (failures): Effect.Effect<never, AuthenticationRefused | RequestRefused> =>
            RateLimiter.isExceeded(failures)
              ? Effect.flatMap(currentMillis, (now) => Effect.fail(tooManyRequests(failures, now)))
              : Effect.fail(refused)
        )
      )
    )
    // who it is, known from here on: even a request now refused for its key's rate limit is that key's
    identified(principal)
    const requests = yield* limiter.hit(
      `key:${principal.rateLimitKey}`,
      principal.environment === "sandbox" ? settings.sandboxRequestsPerMinute : settings.requestsPerMinute,
      MINUTE
    )
    const now = yield* currentMillis
    if (RateLimiter.isExceeded(requests)) {
      const refused = tooManyRequests(requests, now, rateLimitHeaders(requests, now))
      // a sandbox key past its limit (a partner's test suite in a loop) waits for its refusal, holding no CPU: its
      // loop then asks a few times a second rather than thousands, and those refusals do not slow production
      if (principal.environment === "sandbox" && settings.sandboxRefusalPauseMillis > 0)
        return yield* Effect.andThen(Effect.sleep(Duration.millis(settings.sandboxRefusalPauseMillis)), refused)
      return yield* refused
    }
    if (!printsDocument) return { principal, rateHeaders: rateLimitHeaders(requests, now) }
    // one partner asking for many documents cannot take the printing from the others
    const documents = yield* limiter.hit(`documents:${principal.rateLimitKey}`, settings.documentsPerMinute, MINUTE)
    if (RateLimiter.isExceeded(documents)) return yield* tooManyDocuments(documents, now)
    // the answer's RateLimit headers are the window with the fewer requests left
    const tighter = documents.limit - documents.used < requests.limit - requests.used ? documents : requests
    return { principal, rateHeaders: rateLimitHeaders(tighter, now) }
  })

/** A public caller within its address's per-minute limit (the one a subscription key has), with its RateLimit headers. */
export const admitByAddress = (
  caller: Caller,
  settings: AdmissionSettings
): Effect.Effect<Admitted, CoreError | RequestRefused, RateLimiter.RateLimiter> =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter.RateLimiter
    const window = yield* limiter.hit(`public:${caller.address}`, settings.requestsPerMinute, MINUTE)
    const now = yield* currentMillis
    const rateHeaders = rateLimitHeaders(window, now)
    if (RateLimiter.isExceeded(window)) return yield* tooManyRequests(window, now, rateHeaders)
    return { principal: PUBLIC_PRINCIPAL, rateHeaders }
  })

const currentMillis = Effect.clockWith((clock) => Effect.succeed(clock.currentTimeMillisUnsafe()))
