/**
 * RateLimiter in memory: fixed windows per key, counted for this process only
 * (several instances each count their own; a shared store counts for all).
 * A key's window opens at its first request; windows that have ended are
 * swept when many have piled up.
 */
import { RateLimiter } from "@kasko/core"
import { Effect, Layer } from "effect"

interface Window {
  readonly openedAt: number
  readonly windowMillis: number
  used: number
}

// past this many keys, ended windows are dropped before a new one opens
const SWEEP_FROM = 10_000

export const makeRateLimiter = (): RateLimiter.RateLimiter["Service"] => {
  const windows = new Map<string, Window>()
  const sweep = (now: number) => {
    for (const [key, window] of windows) if (now >= window.openedAt + window.windowMillis) windows.delete(key)
  }
  const open = (key: string, windowMillis: number, now: number): Window => {
    const current = windows.get(key)
    if (current !== undefined && now < current.openedAt + current.windowMillis) return current
    if (windows.size >= SWEEP_FROM) sweep(now)
    const opened: Window = { openedAt: now, windowMillis, used: 0 }
    windows.set(key, opened)
    return opened
  }
  const answer = (window: Window, limit: number): RateLimiter.RateLimitWindow => ({
    limit,
    used: window.used,
    resetsAt: window.openedAt + window.windowMillis
  })
  return {
    hit: (key, limit, windowMillis) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const window = open(key, windowMillis, clock.currentTimeMillisUnsafe())
          window.used++
          return answer(window, limit)
        })
      ),
    peek: (key, limit, windowMillis) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => answer(open(key, windowMillis, clock.currentTimeMillisUnsafe()), limit))
      )
  }
}

/** The in-memory RateLimiter as a Layer; each build counts from zero. */
export const layer: Layer.Layer<RateLimiter.RateLimiter> = Layer.sync(RateLimiter.RateLimiter, makeRateLimiter)
