/**
 * The rate limit in Redis, with rate-limiter-flexible's Redis limiter: one
 * count per key and window for every instance together (an atomic increment;
 * the key expires with its window). When Redis is not connected or does not
 * answer in time, the request is counted by the insurance limiter (this
 * instance's own count) instead of being refused: an outage of the limiter
 * must not become an outage of the API.
 * @module
 */
import { RateLimiter } from "@kasko/core"
import { Effect, Layer } from "effect"
import { Redis } from "ioredis"
import { type RateLimiterAbstract, RateLimiterRedis } from "rate-limiter-flexible"

/** Where the Redis limiter counts (the server, a key prefix), how long it waits, and what counts when Redis cannot. */
export interface RedisRateLimiterOptions {
  /** `redis://host:port/db`. */
  readonly url: string
  /** Prefix of the keys kasko writes (`kasko:` by default): several services may share one Redis. */
  readonly keyPrefix?: string
  /** Longest wait for Redis before a request is counted by the insurance (250 ms by default). */
  readonly timeoutMillis?: number
  /** The limiter that counts while Redis cannot, one per limit and window (`MemoryRateLimiter.insurance`). */
  readonly insuranceFor: (limit: number, windowMillis: number) => RateLimiterAbstract
  /** Told when the connection to Redis fails (for a log line). */
  readonly onUnavailable?: (error: unknown) => void
}

const makeRateLimiter = (redis: Redis, options: RedisRateLimiterOptions): RateLimiter.RateLimiter["Service"] =>
  RateLimiter.fromLimiters(
    (limit, windowMillis) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${options.keyPrefix ?? "kasko:"}rate:${windowMillis}`,
        points: limit,
        duration: windowMillis / 1000,
        // while disconnected, straight to the insurance: no request waits for a reconnection
        rejectIfRedisNotReady: true,
        insuranceLimiter: options.insuranceFor(limit, windowMillis)
      })
  )

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
              // a command never waits for a reconnection, nor longer than the timeout: the insurance counts meanwhile
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
          // connection errors are the insurance's business and the log's, never an unhandled event
          redis.on("error", (error) => options.onUnavailable?.(error))
          return Effect.promise(() => firstConnection(redis))
        })
      ),
      (redis) => makeRateLimiter(redis, options)
    )
  )
