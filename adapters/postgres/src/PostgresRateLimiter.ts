/**
 * The rate limit in PostgreSQL, for instances that share a database but no
 * Redis, with rate-limiter-flexible's PostgreSQL limiter: one row per key
 * (migration 8), counted with an upsert, so every instance counts against the
 * same limit. A small pool of its own keeps the counting apart from the
 * stores' connections; rows of ended windows are deleted every few minutes
 * (a failed deletion is tried again within seconds).
 * When the database does not answer in time, the request is counted by the
 * insurance limiter (this instance alone) and served.
 * @module
 */
import { RateLimiter } from "@kasko/core"
import { Duration, Effect, Layer, Schedule } from "effect"
import pg from "pg"
import { type RateLimiterAbstract, RateLimiterPostgres } from "rate-limiter-flexible"

/** The database the PostgreSQL limiter counts in, how long it waits, and what counts when the database cannot. */
export interface PostgresRateLimiterOptions {
  readonly connectionString: string
  /** The schema kasko's tables live in (the stores' migrations made the table). */
  readonly schema: string
  /** The limiter that counts while PostgreSQL cannot, one per limit and window (`MemoryRateLimiter.insurance`). */
  readonly insuranceFor: (limit: number, windowMillis: number) => RateLimiterAbstract
  /** Told when a pooled connection to PostgreSQL fails (for a log line). */
  readonly onUnavailable?: (error: unknown) => void
  /** Told when a pruning of ended windows fails (for a log line); it is tried again, after 1 s, 2 s, … 5 minutes at most. */
  readonly onPruningFailed?: (error: unknown) => void
  /** Longest wait for a count before the insurance counts instead (250 ms by default; 100 ms more when PostgreSQL says nothing at all). */
  readonly timeoutMillis?: number
}

const TABLE = "rate_limits"
const PRUNE = `DELETE FROM ${TABLE} WHERE expire < $1`
const CANCELLATION_MARGIN_MILLIS = 100
const PRUNE_TIMEOUT_MILLIS = 60_000
// rows whose window ended an hour ago: a row that just ended is left to the next count's upsert, which restarts
// its window, rather than locked by the pruning while a request for its key waits
const PRUNED_AFTER_MILLIS = 60 * 60 * 1000
const PRUNE_EVERY = Duration.minutes(5)
// a failed pruning (the server refusing connections for a moment, say) is tried again soon, not 5 minutes later:
// the rows of ended windows keep growing meanwhile
const PRUNE_RETRIES = Schedule.min([Schedule.exponential(Duration.seconds(1)), Schedule.spaced(PRUNE_EVERY)])

/**
 * Deletes the rows whose window ended before `before`, on a connection of its own: many rows can take longer than
 * a count may wait (rate-limiter-flexible's own clearing runs under the pool's 250 ms and would give up on a large
 * table), and neither the connecting nor the deleting may take one of the counts' few pooled connections or be
 * held to their 250 ms — a pruning that could not connect in 250 ms was given up until the next, 5 minutes later.
 */
const prune = async (options: PostgresRateLimiterOptions, before: number, signal: AbortSignal) => {
  const client = new pg.Client({
    connectionString: options.connectionString,
    options: `-c search_path=${options.schema}`,
    application_name: `kasko:${options.schema}:rate-limit-pruning`,
    connectionTimeoutMillis: PRUNE_TIMEOUT_MILLIS,
    statement_timeout: PRUNE_TIMEOUT_MILLIS,
    query_timeout: PRUNE_TIMEOUT_MILLIS + CANCELLATION_MARGIN_MILLIS
  })
  client.on("error", () => undefined)
  // the service's stop does not wait for a pruning under way: it ends the connection, and the server rolls it back
  const stopped = () => void client.end().catch(() => undefined)
  signal.addEventListener("abort", stopped, { once: true })
  try {
    await client.connect()
    await client.query(PRUNE, [before])
  } finally {
    signal.removeEventListener("abort", stopped)
    await client.end().catch(() => undefined)
  }
}

/**
 * The RateLimiter in PostgreSQL, one count for every instance sharing the database: for several instances without
 * Redis. Its pool is opened when the layer is built and closed with its scope.
 */
export const layer = (options: PostgresRateLimiterOptions): Layer.Layer<RateLimiter.RateLimiter> =>
  Layer.effect(
    RateLimiter.RateLimiter,
    Effect.gen(function* () {
      const timeout = options.timeoutMillis ?? 250
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const created = new pg.Pool({
            connectionString: options.connectionString,
            max: 4,
            options: `-c search_path=${options.schema}`,
            application_name: `kasko:${options.schema}:rate-limit`,
            // A count not made in time is made by the insurance instead, so one given up on must not land later.
            // Still waiting for a connection, it is dropped. At the server (waiting for a lock, say) the server
            // cancels it and its upsert rolls back; the client waits a little longer than the server, so that
            // it hears of the cancellation rather than giving up on a statement that could still commit.
            connectionTimeoutMillis: timeout,
            statement_timeout: timeout,
            query_timeout: timeout + CANCELLATION_MARGIN_MILLIS
          })
          // a lost connection is the insurance's business, never a crash
          created.on("error", (error) => options.onUnavailable?.(error))
          created.on("connect", (client) => client.on("error", () => undefined))
          return created
        }),
        (pool) => Effect.promise(() => pool.end())
      )
      yield* Effect.forkScoped(
        Effect.clockWith((clock) =>
          Effect.tryPromise((signal) => prune(options, clock.currentTimeMillisUnsafe() - PRUNED_AFTER_MILLIS, signal))
        ).pipe(
          Effect.tapError((failure) => Effect.sync(() => options.onPruningFailed?.(failure.cause))),
          Effect.retry(PRUNE_RETRIES),
          Effect.repeat(Schedule.spaced(PRUNE_EVERY))
        )
      )
      return RateLimiter.fromLimiters(
        (limit, windowMillis) =>
          new RateLimiterPostgres({
            storeClient: pool,
            storeType: "pool",
            schemaName: options.schema,
            tableName: TABLE,
            // made by migration 8; the pruning above clears it
            tableCreated: true,
            clearExpiredByTimeout: false,
            keyPrefix: `rate:${windowMillis}`,
            points: limit,
            duration: windowMillis / 1000,
            insuranceLimiter: options.insuranceFor(limit, windowMillis)
          })
      )
    })
  )
