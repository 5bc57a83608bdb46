/**
 * Partners' webhook subscriptions on SQLite; a subscription's deliveries go with it (ON DELETE CASCADE).
 * @module
 */
import type { WebhookSubscriptions } from "@kasko/core"
import type { WebhookEndpoints } from "@kasko/core/transport"
import type Database from "better-sqlite3"
import { Effect, Option } from "effect"
import { attempt } from "./SqliteErrors.js"

type Subscription = WebhookEndpoints.WebhookSubscription
type SubscriptionRow = Omit<Subscription, "event_types" | "disabled"> & { readonly event_types: string }
type StoredRow = SubscriptionRow & { readonly disabled_at: number | null; readonly disabled_reason: string | null }

const COLUMNS = "subscription_id, partner_id, url, event_types, secret, created_at"
const READ_COLUMNS = `${COLUMNS}, disabled_at, disabled_reason`

const subscriptionOfRow = ({ disabled_at, disabled_reason, ...row }: StoredRow): Subscription => ({
  ...row,
  event_types: JSON.parse(row.event_types) as Subscription["event_types"],
  ...(disabled_at === null ? {} : { disabled: { at: disabled_at, reason: disabled_reason ?? "" } })
})

/** The WebhookSubscriptions on an open, migrated database: what `SqliteQuoteStore.layer` and `SqliteStores.layer` provide. */
export const makeWebhookSubscriptions = (
  database: Database.Database
): WebhookSubscriptions.WebhookSubscriptions["Service"] => {
  // one statement, so the count and the write are one step (and SQLite has one writer at a time)
  const insert = database.prepare<[SubscriptionRow & { limit: number }]>(
    `INSERT INTO webhook_subscriptions (${COLUMNS})
     SELECT @subscription_id, @partner_id, @url, @event_types, @secret, @created_at
     WHERE (SELECT COUNT(*) FROM webhook_subscriptions WHERE partner_id = @partner_id) < @limit`
  )
  const selectOfPartner = database.prepare<[string], StoredRow>(
    `SELECT ${READ_COLUMNS} FROM webhook_subscriptions WHERE partner_id = ? ORDER BY created_at, subscription_id`
  )
  const remove = database.prepare<[string, string]>(
    "DELETE FROM webhook_subscriptions WHERE partner_id = ? AND subscription_id = ?"
  )
  const rotate = database.prepare<[string, string, string], StoredRow>(
    `UPDATE webhook_subscriptions SET secret = ? WHERE partner_id = ? AND subscription_id = ? RETURNING ${READ_COLUMNS}`
  )
  const enable = database.prepare<[string, string], StoredRow>(
    `UPDATE webhook_subscriptions SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL
     WHERE partner_id = ? AND subscription_id = ? RETURNING ${READ_COLUMNS}`
  )
  // A partner's first subscription starts its fan-out cursor at the last event written: a subscription is sent
  // the events after it, not those its partner had before. Its last one removed, the cursor goes.
  const startFanOut = database.prepare<{ partner_id: string }>(
    `INSERT INTO webhook_fan_out (partner_id, fanned_out_to)
     SELECT @partner_id, (SELECT COALESCE(MAX(position), 0) FROM quote_events)
     WHERE (SELECT COUNT(*) FROM webhook_subscriptions WHERE partner_id = @partner_id) = 1
     ON CONFLICT (partner_id) DO UPDATE SET fanned_out_to = excluded.fanned_out_to`
  )
  const stopFanOut = database.prepare<{ partner_id: string }>(
    `DELETE FROM webhook_fan_out
     WHERE partner_id = @partner_id AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE partner_id = @partner_id)`
  )
  const insertWithCursor = database.transaction((row: SubscriptionRow & { limit: number }) => {
    const inserted = insert.run(row).changes === 1
    if (inserted) startFanOut.run({ partner_id: row.partner_id })
    return inserted
  })
  const removeWithCursor = database.transaction((partnerId: string, subscriptionId: string) => {
    const removed = remove.run(partnerId, subscriptionId).changes === 1
    if (removed) stopFanOut.run({ partner_id: partnerId })
    return removed
  })
  return {
    insert: (subscription, limit) =>
      attempt("insert webhook subscription", () =>
        insertWithCursor.immediate({ ...subscription, event_types: JSON.stringify(subscription.event_types), limit })
      ),
    subscriptionsOf: (partnerId) =>
      attempt("list webhook subscriptions", () => selectOfPartner.all(partnerId).map(subscriptionOfRow)),
    remove: (partnerId, subscriptionId) =>
      attempt("remove webhook subscription", () => removeWithCursor.immediate(partnerId, subscriptionId)),
    enable: (partnerId, subscriptionId) =>
      attempt("enable webhook subscription", () => enable.get(partnerId, subscriptionId)).pipe(
        Effect.map((row) => Option.map(Option.fromNullishOr(row), subscriptionOfRow))
      ),
    rotateSecret: (partnerId, subscriptionId, secret) =>
      attempt("rotate webhook secret", () => rotate.get(secret, partnerId, subscriptionId)).pipe(
        Effect.map((row) => Option.map(Option.fromNullishOr(row), subscriptionOfRow))
      )
  }
}
