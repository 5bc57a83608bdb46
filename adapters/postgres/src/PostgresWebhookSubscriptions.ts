/**
 * Partners' webhook subscriptions on PostgreSQL; a subscription's deliveries go with it (ON DELETE CASCADE).
 * @module
 */
import type { WebhookSubscriptions } from "@kasko/core"
import type { WebhookEndpoints } from "@kasko/core/transport"
import { Effect, Option } from "effect"
import type pg from "pg"
import { attempt } from "./PostgresErrors.js"
import { transaction } from "./Transaction.js"

type Subscription = WebhookEndpoints.WebhookSubscription
type StoredRow = Omit<Subscription, "disabled"> & {
  readonly disabled_at: string | number | null
  readonly disabled_reason: string | null
}

const COLUMNS = "subscription_id, partner_id, url, event_types, secret, created_at"
const READ_COLUMNS = `${COLUMNS}, disabled_at, disabled_reason`

// bigint columns come back as strings from node-postgres
const subscriptionOfRow = ({ disabled_at, disabled_reason, ...row }: StoredRow): Subscription => ({
  ...row,
  created_at: Number(row.created_at),
  ...(disabled_at === null ? {} : { disabled: { at: Number(disabled_at), reason: disabled_reason ?? "" } })
})

/** The WebhookSubscriptions on a pool whose schema is migrated: what `PostgresStores.layer` provides. */
export const makeWebhookSubscriptions = (pool: pg.Pool): WebhookSubscriptions.WebhookSubscriptions["Service"] => ({
  // the partner's lock (for this transaction) makes the count and the write one step for every instance
  insert: (subscription, limit) =>
    transaction(pool, "insert webhook subscription", async (statement) => {
      await statement("SELECT pg_advisory_xact_lock(hashtext('kasko webhook subscriptions of ' || $1))", [
        subscription.partner_id
      ])
      const inserted = await statement(
        `INSERT INTO webhook_subscriptions (${COLUMNS})
         SELECT $1, $2, $3, $4, $5, $6
         WHERE (SELECT COUNT(*) FROM webhook_subscriptions WHERE partner_id = $2) < $7`,
        [
          subscription.subscription_id,
          subscription.partner_id,
          subscription.url,
          subscription.event_types,
          subscription.secret,
          subscription.created_at,
          limit
        ]
      )
      return inserted.rowCount === 1
    }),
  subscriptionsOf: (partnerId) =>
    attempt("list webhook subscriptions", () =>
      pool.query<StoredRow>(
        `SELECT ${READ_COLUMNS} FROM webhook_subscriptions WHERE partner_id = $1 ORDER BY created_at, subscription_id`,
        [partnerId]
      )
    ).pipe(Effect.map((result) => result.rows.map(subscriptionOfRow))),
  remove: (partnerId, subscriptionId) =>
    attempt("remove webhook subscription", () =>
      pool.query("DELETE FROM webhook_subscriptions WHERE partner_id = $1 AND subscription_id = $2", [
        partnerId,
        subscriptionId
      ])
    ).pipe(Effect.map((result) => result.rowCount === 1)),
  rotateSecret: (partnerId, subscriptionId, secret) =>
    attempt("rotate webhook secret", () =>
      pool.query<StoredRow>(
        `UPDATE webhook_subscriptions SET secret = $1 WHERE partner_id = $2 AND subscription_id = $3
         RETURNING ${READ_COLUMNS}`,
        [secret, partnerId, subscriptionId]
      )
    ).pipe(Effect.map((result) => Option.map(Option.fromNullishOr(result.rows[0]), subscriptionOfRow))),
  enable: (partnerId, subscriptionId) =>
    attempt("enable webhook subscription", () =>
      pool.query<StoredRow>(
        `UPDATE webhook_subscriptions SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL
         WHERE partner_id = $1 AND subscription_id = $2 RETURNING ${READ_COLUMNS}`,
        [partnerId, subscriptionId]
      )
    ).pipe(Effect.map((result) => Option.map(Option.fromNullishOr(result.rows[0]), subscriptionOfRow)))
})
