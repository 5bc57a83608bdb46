/**
 * RateLimiter in memory, with rate-limiter-flexible's memory limiter: a key's
 * window opens at its first request and is counted for this process only
 * (several instances each count their own; a shared store counts for all).
 * A key is forgotten when its window ends.
 * @module
 */
import { RateLimiter } from "@kasko/core"
import { Layer } from "effect"
import { RateLimiterMemory } from "rate-limiter-flexible"

/** A fresh RateLimiter counting in this process's memory, for a test or an embedder that provides the service itself. */
export const makeRateLimiter = (): RateLimiter.RateLimiter["Service"] =>
  RateLimiter.fromLimiters(
    (limit, windowMillis) => new RateLimiterMemory({ points: limit, duration: windowMillis / 1000 })
  )

/** The in-memory RateLimiter as a Layer; each build counts from zero. */
export const layer: Layer.Layer<RateLimiter.RateLimiter> = Layer.sync(RateLimiter.RateLimiter, makeRateLimiter)

/** Counts in this process, telling `whenUsed` each time it does. */
class CountingAlone extends RateLimiterMemory {
  readonly whenUsed: () => void
  constructor(options: ConstructorParameters<typeof RateLimiterMemory>[0], whenUsed: () => void) {
    super(options)
    this.whenUsed = whenUsed
  }
  override consume(key: string | number, points?: number, options?: { [key: string]: unknown }) {
    this.whenUsed()
    return super.consume(key, points, options)
  }
  override get(key: string | number, options?: { [key: string]: unknown }) {
    this.whenUsed()
    return super.get(key, options)
  }
}

/**
 * Insurance for a shared store's limiter (rate-limiter-flexible's
 * `insuranceLimiter`): while the store fails or is slow, this process counts
 * alone in memory, and `whenUsed` hears of each request it counts.
 */
export const insurance =
  (whenUsed: () => void) =>
  (limit: number, windowMillis: number): RateLimiterMemory =>
    new CountingAlone({ points: limit, duration: windowMillis / 1000 }, whenUsed)
