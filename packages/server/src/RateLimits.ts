/**
 * Where requests are counted against the rate limit: in Redis when
 * KASKO_REDIS_URL is set, else in PostgreSQL when the service keeps its data
 * there — either way one limit per key for every instance together — and in
 * this process's memory on SQLite. While the shared store does not answer,
 * this process counts alone (and says so in the log, at most every 10 s).
 */
import type { RateLimiter } from "@kasko/core"
import { MemoryRateLimiter } from "@kasko/memory"
import { PostgresRateLimiter } from "@kasko/postgres"
import { RedisRateLimiter } from "@kasko/redis"
import { type Layer, Option } from "effect"
import type { Logger } from "pino"
import type { ServiceConfig } from "./ServiceConfig.js"

const WARN_EVERY_MILLIS = 10_000

/** A log line when the shared store fails, at most one per 10 s. */
const warnerFor = (logger: Logger, store: string) => {
  let warnedAt = Number.NEGATIVE_INFINITY
  return (error?: unknown) => {
    const now = Date.now()
    if (now - warnedAt < WARN_EVERY_MILLIS) return
    warnedAt = now
    logger.warn(
      error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) },
      `${store} does not answer: this instance counts the rate limit alone until it does`
    )
  }
}

/** Counting in this process's memory while the shared store cannot, and saying so. */
const insuredBy = (warn: (error?: unknown) => void) => ({
  insuranceFor: MemoryRateLimiter.insurance(() => warn()),
  onUnavailable: warn
})

export const rateLimiterLayer = (config: ServiceConfig, logger: Logger): Layer.Layer<RateLimiter.RateLimiter> => {
  if (Option.isSome(config.redisUrl))
    return RedisRateLimiter.layer({
      url: config.redisUrl.value,
      ...insuredBy(warnerFor(logger, "Redis"))
    })
  if (Option.isSome(config.databaseUrl))
    return PostgresRateLimiter.layer({
      connectionString: config.databaseUrl.value,
      schema: config.databaseSchema,
      ...insuredBy(warnerFor(logger, "PostgreSQL")),
      onPruningFailed: (error) =>
        logger.warn(
          { error: error instanceof Error ? error.message : String(error) },
          "The pruning of ended rate-limit windows failed: it is tried again shortly"
        )
    })
  return MemoryRateLimiter.layer
}
