/**
 * The rate-limit port: counts requests per key in fixed windows. In memory it
 * counts for one process; a shared store (PostgreSQL, Redis) counts for every
 * instance together.
 */
import { Context, Effect } from "effect"
import type { StorageUnavailable } from "../Errors.js"

/** A key's window after a request was counted (or looked at). */
export interface RateLimitWindow {
  readonly limit: number
  /** Requests counted in the window so far, this one included. */
  readonly used: number
  /** When the window ends, epoch milliseconds. */
  readonly resetsAt: number
}

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

/** How a shared store counts: the window's count after one more request, or as it stands. */
export interface SharedCounter {
  /** Counts one request under `key` in the window opened at `opensAt`, which ends `windowMillis` later; answers its count. */
  readonly count: (key: string, opensAt: number, windowMillis: number) => Promise<number>
  /** The count of `key`'s window opened at `opensAt` (0 when none was counted). */
  readonly read: (key: string, opensAt: number) => Promise<number>
  /** Counts while the shared store cannot (this instance's own count). */
  readonly fallback: RateLimiter["Service"]
  /** Told when the shared store could not count a request. */
  readonly onUnavailable?: (error: unknown) => void
}

/**
 * A RateLimiter over a store every instance shares (Redis, PostgreSQL): fixed
 * windows aligned to the epoch, so a key's minute is the same minute on every
 * instance. When the store fails, the request is counted by the fallback
 * instead of refused: an outage of the limiter must not become one of the API.
 */
export const countedInSharedStore = (counter: SharedCounter): RateLimiter["Service"] => {
  const counted = (
    limit: number,
    windowMillis: number,
    use: (opensAt: number) => Promise<number>,
    fallback: Effect.Effect<RateLimitWindow, StorageUnavailable>
  ) =>
    Effect.clockWith((clock) => {
      const now = clock.currentTimeMillisUnsafe()
      const opensAt = now - (now % windowMillis)
      return Effect.tryPromise(() => use(opensAt)).pipe(
        Effect.map((used): RateLimitWindow => ({ limit, used, resetsAt: opensAt + windowMillis })),
        Effect.catch((error) => {
          counter.onUnavailable?.(error)
          return fallback
        })
      )
    })
  return {
    hit: (key, limit, windowMillis) =>
      counted(
        limit,
        windowMillis,
        (opensAt) => counter.count(key, opensAt, windowMillis),
        counter.fallback.hit(key, limit, windowMillis)
      ),
    peek: (key, limit, windowMillis) =>
      counted(
        limit,
        windowMillis,
        (opensAt) => counter.read(key, opensAt),
        counter.fallback.peek(key, limit, windowMillis)
      )
  }
}
