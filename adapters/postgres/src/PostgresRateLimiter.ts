/**
 * The rate limit in PostgreSQL, for instances that share a database but no
 * Redis: one row per key and window (migration 6), counted with an upsert, so
 * every instance counts against the same limit. A small pool of its own keeps
 * the counting apart from the stores' connections; rows of ended windows are
 * deleted every few minutes. When the database does not answer in time, the
 * request is counted by the fallback (this instance alone) and served.
 */
import { RateLimiter } from "@kasko/core"
import { Duration, Effect, Layer, Schedule } from "effect"
import pg from "pg"

export interface PostgresRateLimiterOptions {
  readonly connectionString: string
  /** The schema kasko's tables live in (the stores' migrations made the table). */
  readonly schema: string
  /** Counts while PostgreSQL cannot. */
  readonly fallback: RateLimiter.RateLimiter["Service"]
  /** Told when PostgreSQL could not count a request (for a log line). */
  readonly onUnavailable?: (error: unknown) => void
  /** Longest wait for a count before the fallback counts instead (250 ms by default; 100 ms more when PostgreSQL says nothing at all). */
  readonly timeoutMillis?: number
}

const COUNT = `
  INSERT INTO rate_limit_windows (key, window_start, used) VALUES ($1, $2, 1)
  ON CONFLICT (key, window_start) DO UPDATE SET used = rate_limit_windows.used + 1
  RETURNING used`
const READ = "SELECT used FROM rate_limit_windows WHERE key = $1 AND window_start = $2"
const PRUNE = "DELETE FROM rate_limit_windows WHERE window_start < $1"
const CANCELLATION_MARGIN_MILLIS = 100
const PRUNE_TIMEOUT_MILLIS = 60_000
// windows are a minute (the longest is an hour for nobody yet): a day back is long past any of them
const KEPT_MILLIS = 24 * 60 * 60 * 1000

/**
 * Deletes the windows that opened before `before`. A day of windows can take longer than a count may: the
 * pruning lifts the connection's timeouts for its own statement, in a transaction of its own.
 */
const prune = async (pool: pg.Pool, before: number) => {
  const client = await pool.connect()
  try {
    await client.query("BEGIN")
    await client.query(`SET LOCAL statement_timeout = ${PRUNE_TIMEOUT_MILLIS}`)
    // pg reads a query's own query_timeout over the connection's; its types do not list it
    await client.query({ text: PRUNE, values: [before], query_timeout: PRUNE_TIMEOUT_MILLIS } as pg.QueryConfig)
    await client.query("COMMIT")
    client.release()
  } catch (error) {
    // the connection's state is unknown (in a transaction, or a statement still running): not for reuse
    client.release(error as Error)
    throw error
  }
}

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
            // A count not made in time is made by the fallback instead, so one given up on must not land later.
            // Still waiting for a connection, it is dropped. At the server (waiting for a lock, say) the server
            // cancels it and its upsert rolls back; the client waits a little longer than the server, so that
            // it hears of the cancellation rather than giving up on a statement that could still commit.
            connectionTimeoutMillis: timeout,
            statement_timeout: timeout,
            query_timeout: timeout + CANCELLATION_MARGIN_MILLIS
          })
          // a lost connection is the fallback's business, never a crash
          created.on("error", (error) => options.onUnavailable?.(error))
          created.on("connect", (client) => client.on("error", () => undefined))
          return created
        }),
        (pool) => Effect.promise(() => pool.end())
      )
      yield* Effect.forkScoped(
        Effect.clockWith((clock) =>
          Effect.tryPromise(() => prune(pool, clock.currentTimeMillisUnsafe() - KEPT_MILLIS))
        ).pipe(Effect.ignore, Effect.repeat(Schedule.spaced(Duration.minutes(5))))
      )
      return RateLimiter.countedInSharedStore({
        count: async (key, opensAt) => Number((await pool.query(COUNT, [key, opensAt])).rows[0]?.used),
        read: async (key, opensAt) => Number((await pool.query(READ, [key, opensAt])).rows[0]?.used ?? 0),
        fallback: options.fallback,
        ...(options.onUnavailable === undefined ? {} : { onUnavailable: options.onUnavailable })
      })
    })
  )
