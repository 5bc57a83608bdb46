/**
 * A write in a transaction of its own, as an Effect a request can let go of
 * (its time budget ran out): interrupted before COMMIT is sent, the
 * transaction sends no further statement, rolls back once the one in flight
 * returns, and never commits; interrupted while COMMIT is in flight, the
 * interruption waits for it. Either way a write never lands after its request
 * was answered. A lost connection is released with its error, so the pool
 * discards it.
 */
import type { StorageUnavailable } from "@kasko/core"
import { Effect } from "effect"
import type pg from "pg"
import { driverFailure } from "./PostgresErrors.js"

/** A statement within the transaction. */
export type Statement = <Row extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  values?: ReadonlyArray<unknown>
) => Promise<pg.QueryResult<Row>>

class Abandoned extends Error {}

/**
 * Runs `work` in a transaction and commits it — unless `commits` says the
 * outcome is to be rolled back (a claim another transaction won, say), in
 * which case it rolls back and still answers the outcome.
 */
export const transaction = <A>(
  pool: pg.Pool,
  operation: string,
  work: (statement: Statement) => Promise<A>,
  commits: (outcome: A) => boolean = () => true
): Effect.Effect<A, StorageUnavailable> =>
  Effect.callback<A, StorageUnavailable>((resume) => {
    const state = { abandoned: false, committing: false }
    const run = (async () => {
      const client = await pool.connect()
      let lost: Error | undefined
      const statement: Statement = (text, values) => {
        if (state.abandoned) throw new Abandoned(`${operation}: abandoned`)
        return client.query(text, values as Array<unknown>)
      }
      try {
        await statement("BEGIN")
        const outcome = await work(statement)
        if (state.abandoned || !commits(outcome)) {
          await client.query("ROLLBACK")
          return outcome
        }
        state.committing = true
        await client.query("COMMIT")
        return outcome
      } catch (error) {
        await client.query("ROLLBACK").catch((failure: Error) => {
          lost = failure
        })
        throw error
      } finally {
        client.release(lost)
      }
    })()
    run.then(
      (outcome) => resume(Effect.succeed(outcome)),
      (error: unknown) => resume(driverFailure(operation, error))
    )
    return Effect.suspend(() => {
      state.abandoned = true
      return state.committing
        ? Effect.promise(() =>
            run.then(
              () => undefined,
              () => undefined
            )
          )
        : Effect.void
    })
  })
