/**
 * The rate-limit port: counts requests per key in fixed windows. In memory it
 * counts for one process; a shared store (PostgreSQL, Redis) counts for every
 * instance together. The adapters count with rate-limiter-flexible; the core
 * reads its answers through `fromLimiters`.
 * @module
 */
import { Context, Effect } from "effect"
import { StorageUnavailable } from "../Errors.js"

/** A key's window after a request was counted (or looked at). */
export interface RateLimitWindow {
  readonly limit: number
  /** Requests counted in the window so far, this one included. */
  readonly used: number
  /** When the window ends, epoch milliseconds. */
  readonly resetsAt: number
}

/**
 * The RateLimiter port: requests counted per key in fixed windows. `@kasko/memory` counts per instance;
 * `@kasko/redis` and `@kasko/postgres` count for every instance together.
 */
export class RateLimiter extends Context.Service<
  RateLimiter,
  {
    /** Counts one request under `key` in its current window of `windowMillis`, and answers the window. */
    readonly hit: (
      key: string,
      limit: number,
      windowMillis: number
    ) => Effect.Effect<RateLimitWindow, StorageUnavailable>
    /** The current window of `key`, without counting. */
    readonly peek: (
      key: string,
      limit: number,
      windowMillis: number
    ) => Effect.Effect<RateLimitWindow, StorageUnavailable>
  }
>()("@kasko/core/RateLimiter") {}

/** True once the window holds more requests than its limit allows. */
export const isExceeded = (window: RateLimitWindow): boolean => window.used > window.limit

/**
 * What a rate-limiter-flexible limiter answers (its `RateLimiterRes`), read
 * structurally: the core imports no library but effect.
 */
interface LimiterAnswer {
  /** Points consumed in the key's window, this request's included. */
  readonly consumedPoints: number
  /** Milliseconds until the window ends. */
  readonly msBeforeNext: number
}

/** A limiter of one limit and window: `consume` rejects with its answer once over the limit, with anything else when its store fails. */
interface Limiter {
  readonly consume: (key: string) => Promise<LimiterAnswer>
  readonly get: (key: string) => Promise<LimiterAnswer | null>
}

const isAnswer = (reason: unknown): reason is LimiterAnswer =>
  typeof reason === "object" && reason !== null && "consumedPoints" in reason && "msBeforeNext" in reason

/**
 * The RateLimiter over limiters made once per limit and window
 * (rate-limiter-flexible's: memory, Redis, PostgreSQL, each with its
 * insurance limiter for when its store fails). A store failure that reaches
 * here, with no insurance to count instead, is StorageUnavailable.
 */
export const fromLimiters = (limiterFor: (limit: number, windowMillis: number) => Limiter): RateLimiter["Service"] => {
  const limiters = new Map<string, Limiter>()
  const limiter = (limit: number, windowMillis: number) => {
    const name = `${limit}/${windowMillis}`
    const known = limiters.get(name)
    if (known !== undefined) return known
    const made = limiterFor(limit, windowMillis)
    limiters.set(name, made)
    return made
  }
  const settled = (
    limit: number,
    windowMillis: number,
    ask: () => Promise<LimiterAnswer | null>
  ): Effect.Effect<RateLimitWindow, StorageUnavailable> =>
    Effect.clockWith((clock) =>
      Effect.callback<RateLimitWindow, StorageUnavailable>((resume) => {
        const now = clock.currentTimeMillisUnsafe()
        const windowOf = (answer: LimiterAnswer | null): RateLimitWindow =>
          answer === null
            ? { limit, used: 0, resetsAt: now + windowMillis }
            : { limit, used: answer.consumedPoints, resetsAt: now + Math.max(0, answer.msBeforeNext) }
        ask().then(
          (answer) => resume(Effect.succeed(windowOf(answer))),
          (reason: unknown) =>
            resume(
              isAnswer(reason)
                ? Effect.succeed(windowOf(reason))
                : Effect.fail(
                    new StorageUnavailable({
                      reason: `the rate limit could not be counted: ${reason instanceof Error ? reason.message : String(reason)}`,
                      retryable: true
                    })
                  )
            )
        )
      })
    )
  return {
    hit: (key, limit, windowMillis) => settled(limit, windowMillis, () => limiter(limit, windowMillis).consume(key)),
    peek: (key, limit, windowMillis) => settled(limit, windowMillis, () => limiter(limit, windowMillis).get(key))
  }
}
