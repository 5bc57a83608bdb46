/**
 * A PostgreSQL write its request let go of (the time budget ran out) never
 * commits: here the idempotent insert is held up by another transaction's
 * claim of the same key; the insert is interrupted while it waits; when the
 * other transaction rolls back and the wait ends, the abandoned transaction
 * rolls back instead of committing.
 */
import { QuoteStore } from "@kasko/core"
import { StoredRows } from "@kasko/sql"
import { PostgresStores } from "@kasko/postgres"
import { Effect, Result } from "effect"
import { setImmediate as nextTurn } from "node:timers/promises"
import pg from "pg"
import { beforeAll, describe, expect, it } from "vitest"
import { makeFixtures, variantOf } from "@kasko/store-contracts"
import { scratchSchema, testDatabaseUrl as providedUrl } from "@kasko/store-contracts/postgres"

const testDatabaseUrl = providedUrl()
const { schema: SCHEMA, admin } = scratchSchema("kasko_interrupted")
let fixtures: ReadonlyArray<QuoteStore.StoredQuote> = []
beforeAll(async () => {
  fixtures = await makeFixtures()
})

/** Whether a connection of the store (its pool's application_name) is in a statement or a transaction. */
const storeBusy = async () =>
  (
    await admin().query(
      "SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = $1 AND state <> 'idle'",
      [`kasko:${SCHEMA}`]
    )
  ).rows[0].count > 0

describe("an interrupted PostgreSQL write", () => {
  it("rolls back instead of committing once the statement it waited on returns", async () => {
    const stores = PostgresStores.layer({ connectionString: testDatabaseUrl, schema: SCHEMA, poolSize: 4 })
    const quote = variantOf(fixtures[0]!, 1)
    const rival = variantOf(fixtures[0]!, 2)
    const use = { key: "order-17", fingerprint: "f", unused_before: 0 }
    await Effect.runPromise(
      Effect.gen(function* () {
        const store = yield* QuoteStore.QuoteStore
        const holder = new pg.Client({ connectionString: testDatabaseUrl, options: `-c search_path=${SCHEMA}` })
        yield* Effect.promise(() => holder.connect())
        try {
          // another transaction holds the key, uncommitted: the insert's claim of it waits
          const row = StoredRows.quoteRowOf(rival)
          yield* Effect.promise(async () => {
            await holder.query("BEGIN")
            await holder.query(
              `INSERT INTO quotes (quote_id, partner_id, quote_number, policy_number, product_name, tariff_version, price_amount, payments_per_year, created_at, activated_at, quote_json, worksheet_json)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
              [
                row.quote_id,
                row.partner_id,
                row.quote_number,
                row.policy_number,
                row.product_name,
                row.tariff_version,
                row.price_amount,
                row.payments_per_year,
                row.created_at,
                row.activated_at,
                row.quote_json,
                row.worksheet_json
              ]
            )
            await holder.query(
              "INSERT INTO idempotency_keys (partner_id, idempotency_key, fingerprint, quote_id, created_at) VALUES ($1, $2, 'g', $3, $4)",
              [rival.partner_id, use.key, rival.quote_id, rival.created_at]
            )
          })
          const outcome = yield* Effect.result(store.insertIdempotent(quote, use).pipe(Effect.timeout("400 millis")))
          expect(Result.isFailure(outcome) && outcome.failure._tag).toBe("TimeoutError")
          // the wait ends: the abandoned claim would now win the key, and must not commit
          yield* Effect.promise(() => holder.query("ROLLBACK"))
          // until every connection of the store is idle, its abandoned transaction ended one way or the other:
          // polled, as the server tells no one
          yield* Effect.promise(async () => {
            while (await storeBusy()) await nextTurn()
          })
        } finally {
          yield* Effect.promise(() => holder.end())
        }
      }).pipe(Effect.provide(stores))
    )
    const stored = await admin().query(`SELECT count(*)::int AS count FROM ${SCHEMA}.quotes`)
    expect(stored.rows[0]).toEqual({ count: 0 })
    const keys = await admin().query(`SELECT count(*)::int AS count FROM ${SCHEMA}.idempotency_keys`)
    expect(keys.rows[0]).toEqual({ count: 0 })
  })
})
