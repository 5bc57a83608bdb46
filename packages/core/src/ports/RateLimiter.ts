/**
 * The rate-limit port: counts requests per key in fixed windows. In memory it
 * counts for one process; a shared store (PostgreSQL, Redis) counts for every
 * instance together.
 */
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "../Errors.js"

/** A key's window after a request was counted (or looked at). */
export interface RateLimitWindow {
  readonly limit: number
  /** Requests counted in the window so far, this one included. */
  readonly used: number
  /** When the window ends, epoch milliseconds. */
  readonly resetsAt: number
}

export class RateLimiter extends Context.Tag("@kasko/core/RateLimiter")<
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
>() {}

/** True once the window holds more requests than its limit allows. */
export const isExceeded = (window: RateLimitWindow): boolean => window.used > window.limit
