/**
 * The rate limit in Redis: one count per key and window for every instance
 * together. Windows are fixed and aligned to the epoch (a key's minute is the
 * same minute on every instance); a window's count is one INCR, and its key
 * expires with the window. When Redis does not answer in time, a request is
 * counted by the fallback limiter (this instance's own count) instead of
 * being refused: an outage of the limiter must not become an outage of the API.
 */
import { RateLimiter } from "@kasko/core"
import { Effect, Layer } from "effect"
import { Redis } from "ioredis"

export interface RedisRateLimiterOptions {
  /** `redis://host:port/db`. */
  readonly url: string
  /** Prefix of the keys kasko writes (`kasko:` by default): several services may share one Redis. */
  readonly keyPrefix?: string
  /** Longest wait for Redis before a request is counted by the fallback (250 ms by default). */
  readonly timeoutMillis?: number
  /** Counts while Redis cannot. */
  readonly fallback: RateLimiter.RateLimiter["Service"]
  /** Told when Redis could not count a request (for a log line). */
  readonly onUnavailable?: (error: unknown) => void
}

// INCR, and on a window's first request its expiry: one round trip, atomic
const COUNT = `local used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return used`

export const makeRateLimiter = (redis: Redis, options: RedisRateLimiterOptions): RateLimiter.RateLimiter["Service"] => {
  const prefix = `${options.keyPrefix ?? "kasko:"}rate:`
  return RateLimiter.countedInSharedStore({
    count: async (key, opensAt, windowMillis) =>
      Number(await redis.eval(COUNT, 1, `${prefix}${key}:${opensAt}`, String(windowMillis))),
    read: async (key, opensAt) => Number((await redis.get(`${prefix}${key}:${opensAt}`)) ?? 0),
    fallback: options.fallback,
    ...(options.onUnavailable === undefined ? {} : { onUnavailable: options.onUnavailable })
  })
}

const CONNECT_TIMEOUT_MILLIS = 2_000

/** Until the connection is ready, or has failed once, or a connect timeout passed: the first requests count in Redis. */
const firstConnection = (redis: Redis): Promise<void> =>
  new Promise((resolve) => {
    if (redis.status === "ready") return resolve()
    const done = () => {
      clearTimeout(timer)
      redis.off("ready", done)
      redis.off("error", done)
      resolve()
    }
    const timer = setTimeout(done, CONNECT_TIMEOUT_MILLIS)
    redis.once("ready", done)
    redis.once("error", done)
  })

/**
 * The Redis rate limiter for the layer's lifetime: connected (or failed to)
 * before the layer is built, reconnecting in the background, and quit when
 * the scope closes.
 */
export const layer = (options: RedisRateLimiterOptions): Layer.Layer<RateLimiter.RateLimiter> =>
  Layer.effect(
    RateLimiter.RateLimiter,
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(
          () =>
            new Redis(options.url, {
              // a request never waits for a reconnection: it is counted by the fallback meanwhile
              enableOfflineQueue: false,
              maxRetriesPerRequest: 0,
              commandTimeout: options.timeoutMillis ?? 250,
              connectTimeout: CONNECT_TIMEOUT_MILLIS,
              // reconnect with backoff, up to 2 s apart, for as long as the service runs
              retryStrategy: (attempt) => Math.min(attempt * 100, 2_000)
            })
        ),
        (redis) => Effect.promise(() => redis.quit().catch(() => redis.disconnect()))
      ).pipe(
        Effect.tap((redis) => {
          // connection errors are the fallback's business and the log's, never an unhandled event
          redis.on("error", (error) => options.onUnavailable?.(error))
          return Effect.promise(() => firstConnection(redis))
        })
      ),
      (redis) => makeRateLimiter(redis, options)
    )
  )
