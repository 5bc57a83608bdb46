/**
 * Deleting a webhook subscription deletes its deliveries (ON DELETE CASCADE): PostgreSQL finds them
 * through an index on the child column when there is one, and scans the whole table otherwise. With
 * sequential scans priced out, the plan of the cascade's lookup must name the index.
 */
import { QuoteStore } from "@kasko/core"
import { PostgresStores } from "@kasko/postgres"
import { Effect } from "effect"
import { expect, it } from "vitest"
import { scratchSchema, testDatabaseUrl as providedUrl } from "@kasko/store-contracts/postgres"

const testDatabaseUrl = providedUrl()
const { schema: SCHEMA, admin } = scratchSchema("kasko_webhook_indexes")

it("finds a subscription's deliveries through an index when the subscription is deleted", async () => {
  await Effect.runPromise(
    QuoteStore.QuoteStore.pipe(
      Effect.asVoid,
      Effect.provide(PostgresStores.layer({ connectionString: testDatabaseUrl, schema: SCHEMA, poolSize: 1 }))
    )
  )
  await admin().query("BEGIN")
  try {
    await admin().query("SET LOCAL enable_seqscan = off")
    const plan = await admin().query<{ "QUERY PLAN": string }>(
      `EXPLAIN DELETE FROM ${SCHEMA}.webhook_deliveries WHERE subscription_id = 'whk_1'`
    )
    expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(
      /Index (Only )?Scan using webhook_deliveries_by_subscription/
    )
  } finally {
    await admin().query("ROLLBACK")
  }
})
