/**
 * Since migration 8 a subscribed partner's new events are those past its cursor in webhook_fan_out; before it,
 * each event was marked when fanned out. A database upgraded with events in both states must go on where the
 * marks left off: the marked events not sent again, the unmarked ones sent, a partner without subscriptions
 * given no cursor.
 */
import { SqliteEventOutbox, SqliteMigrations, SqliteWebhookSubscriptions } from "@kasko/sqlite"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { expect, it } from "vitest"
import { scratchFiles } from "./ScratchFiles.js"

const directory = scratchFiles("kasko-fan-out-cursor-")

const BEFORE_CURSORS = SqliteMigrations.MIGRATIONS.filter(({ version }) => version < 8)

it("upgrades marked and unmarked events to cursors that send each event once", async () => {
  const database = new Database(directory.newFile("marked.db"))
  try {
    SqliteMigrations.migrate(database, BEFORE_CURSORS)
    database
      .prepare(
        `INSERT INTO webhook_subscriptions (subscription_id, partner_id, url, event_types, secret, created_at)
         VALUES (?, ?, ?, '["quote.created"]', 'whsec_c2VjcmV0', 0)`
      )
      .run("whk_a", "partner-a", "https://hooks.example/a")
    database
      .prepare(
        `INSERT INTO webhook_subscriptions (subscription_id, partner_id, url, event_types, secret, created_at)
         VALUES (?, ?, ?, '["quote.created"]', 'whsec_c2VjcmV0', 0)`
      )
      .run("whk_b", "partner-b", "https://hooks.example/b")
    const event = database.prepare(
      `INSERT INTO quote_events (event_id, type, occurred_at, partner_id, quote_id, payload, fanned_out_at)
       VALUES (?, 'quote.created', 0, ?, ?, '{}', ?)`
    )
    // partner-a: two events fanned out before the upgrade, one not (position 5, so its cursor is 4); partner-b: all
    // fanned out (its cursor the last position); partner-c: none, and no subscription
    event.run("evt_a1", "partner-a", "a1", 1)
    event.run("evt_b1", "partner-b", "b1", 1)
    event.run("evt_a2", "partner-a", "a2", 1)
    event.run("evt_c1", "partner-c", "c1", null)
    event.run("evt_a3", "partner-a", "a3", null)
    event.run("evt_b2", "partner-b", "b2", 1)

    SqliteMigrations.migrate(database)

    expect(database.prepare("SELECT partner_id, fanned_out_to FROM webhook_fan_out ORDER BY partner_id").all()).toEqual(
      [
        { partner_id: "partner-a", fanned_out_to: 4 },
        { partner_id: "partner-b", fanned_out_to: 6 }
      ]
    )
    const claimed = await Effect.runPromise(
      SqliteEventOutbox.makeEventOutbox(database).claimDeliveries({ now: 1, owner: "a", leaseMillis: 1_000, limit: 10 })
    )
    expect(claimed.map((delivery) => delivery.event.event_id)).toEqual(["evt_a3"])
  } finally {
    database.close()
  }
})

it("sends a partner that subscribes again none of the events it had while it had no subscription", async () => {
  const database = new Database(directory.newFile("again.db"))
  try {
    SqliteMigrations.migrate(database)
    const subscriptions = SqliteWebhookSubscriptions.makeWebhookSubscriptions(database)
    const outbox = SqliteEventOutbox.makeEventOutbox(database)
    const event = database.prepare(
      `INSERT INTO quote_events (event_id, type, occurred_at, partner_id, quote_id, payload)
       VALUES (?, 'quote.created', 0, 'partner-a', ?, '{}')`
    )
    const subscription = (id: string) => ({
      subscription_id: `whk_${id}`,
      partner_id: "partner-a",
      url: `https://hooks.example/${id}`,
      event_types: ["quote.created" as const],
      secret: "whsec_c2VjcmV0",
      created_at: 0
    })
    const claimed = await Effect.runPromise(
      Effect.gen(function* () {
        yield* subscriptions.insert(subscription("before"), 10)
        event.run("evt_1", "q1")
        yield* subscriptions.remove("partner-a", "whk_before")
        // no claim fans these out before the partner subscribes again
        event.run("evt_2", "q2")
        yield* subscriptions.insert(subscription("after"), 10)
        event.run("evt_3", "q3")
        return yield* outbox.claimDeliveries({ now: 1, owner: "a", leaseMillis: 1_000, limit: 10 })
      })
    )
    expect(claimed.map((delivery) => [delivery.subscription_id, delivery.event.event_id])).toEqual([
      ["whk_after", "evt_3"]
    ])
    expect(database.prepare("SELECT count(*) AS count FROM webhook_fan_out").get()).toEqual({ count: 1 })
  } finally {
    database.close()
  }
})
