/**
 * In order per quote across instances, made deterministic: while one instance
 * is fanning out a quote's created event (its row locked, its transaction
 * open), another instance that skips that row must not send the quote's later
 * activated event first. It waits, and sends the created one first once the
 * fan-out it waited on is done.
 */
import { EventOutbox, QuoteStore, WebhookSubscriptions } from "@kasko/core"
import { PostgresStores } from "@kasko/postgres"
import { Effect, ManagedRuntime } from "effect"
import pg from "pg"
import { describe, expect, it } from "vitest"
import { makeFixtures } from "@kasko/store-contracts"
import { scratchSchema, testDatabaseUrl as providedUrl } from "@kasko/store-contracts/postgres"

const testDatabaseUrl = providedUrl()
const { schema: SCHEMA } = scratchSchema("kasko_ordering")

describe("webhook order across instances on PostgreSQL", () => {
  it("holds a quote's later event back while another instance is still fanning out its earlier one", async () => {
    const runtime = ManagedRuntime.make(
      PostgresStores.layer({ connectionString: testDatabaseUrl, schema: SCHEMA, poolSize: 4 })
    )
    const [fixture] = await makeFixtures()
    const now = fixture!.created_at + 60_000
    const claim = (owner: string) =>
      runtime.runPromise(
        Effect.flatMap(EventOutbox.EventOutbox, (outbox) =>
          outbox.claimDeliveries({ now, owner, leaseMillis: 60_000, limit: 10 })
        )
      )
    await runtime.runPromise(
      Effect.gen(function* () {
        yield* (yield* WebhookSubscriptions.WebhookSubscriptions).insert(
          {
            subscription_id: "whk_ordering",
            partner_id: fixture!.partner_id,
            url: "https://hooks.example/ordering",
            event_types: ["quote.created", "quote.activated"],
            secret: `whsec_${Buffer.alloc(32, 3).toString("base64")}`,
            created_at: 1
          },
          10
        )
        const store = yield* QuoteStore.QuoteStore
        yield* store.insert(fixture!)
        yield* store.markActivated(fixture!.partner_id, fixture!.quote_id, now)
      })
    )
    // "instance A" is fanning out the created event: its row locked, the transaction not yet committed
    const instanceA = new pg.Client({ connectionString: testDatabaseUrl })
    await instanceA.connect()
    try {
      await instanceA.query("BEGIN")
      await instanceA.query(`UPDATE ${SCHEMA}.quote_events SET fanned_out_at = $1 WHERE event_id = $2`, [
        now,
        `evt_${fixture!.quote_id}_created`
      ])
      // "instance B" skips the locked row and fans out the activated event: it must not send it yet
      expect(await claim("b")).toEqual([])
      await instanceA.query("ROLLBACK")
    } finally {
      await instanceA.end()
    }
    expect((await claim("b")).map((delivery) => delivery.event.type)).toEqual(["quote.created"])
    await runtime.dispose()
  })
})
