/** Partners' webhook subscriptions on PostgreSQL; a subscription's deliveries go with it (ON DELETE CASCADE). */
import type { WebhookSubscriptions } from "@kasko/core"
import type { WebhookEndpoints } from "@kasko/core/transport"
import { Effect, Option } from "effect"
import type pg from "pg"
import { attempt } from "./PostgresErrors.js"

type Subscription = WebhookEndpoints.WebhookSubscription

const COLUMNS = "subscription_id, partner_id, url, event_types, secret, created_at"

export const makeWebhookSubscriptions = (pool: pg.Pool): WebhookSubscriptions.WebhookSubscriptions["Type"] => ({
  insert: (subscription) =>
    attempt("insert webhook subscription", () =>
      pool.query(`INSERT INTO webhook_subscriptions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
        subscription.subscription_id,
        subscription.partner_id,
        subscription.url,
        subscription.event_types,
        subscription.secret,
        subscription.created_at
      ])
    ).pipe(Effect.asVoid),
  subscriptionsOf: (partnerId) =>
    attempt("list webhook subscriptions", () =>
      pool.query<Subscription>(
        `SELECT ${COLUMNS} FROM webhook_subscriptions WHERE partner_id = $1 ORDER BY created_at, subscription_id`,
        [partnerId]
      )
    ).pipe(Effect.map((result) => result.rows)),
  remove: (partnerId, subscriptionId) =>
    attempt("remove webhook subscription", () =>
      pool.query("DELETE FROM webhook_subscriptions WHERE partner_id = $1 AND subscription_id = $2", [
        partnerId,
        subscriptionId
      ])
    ).pipe(Effect.map((result) => result.rowCount === 1)),
  rotateSecret: (partnerId, subscriptionId, secret) =>
    attempt("rotate webhook secret", () =>
      pool.query<Subscription>(
        `UPDATE webhook_subscriptions SET secret = $1 WHERE partner_id = $2 AND subscription_id = $3 RETURNING ${COLUMNS}`,
        [secret, partnerId, subscriptionId]
      )
    ).pipe(Effect.map((result) => Option.fromNullable(result.rows[0])))
})
