/**
 * The event outbox and webhook deliveries on PostgreSQL, shared by every
 * instance: a claim fans out new events and leases due deliveries in one
 * transaction, taking rows with FOR UPDATE SKIP LOCKED, so concurrent
 * dispatchers take different rows and none waits for another. A lease that
 * lapses (its instance crashed) makes the delivery claimable again.
 */
import type { EventOutbox } from "@kasko/core"
import { StoredRows } from "@kasko/core/storage"
import { Effect } from "effect"
import type pg from "pg"
import { attempt } from "./PostgresErrors.js"
import { transaction } from "./Transaction.js"

const { EVENT_COLUMNS, claimedDeliveryOfRow, deliveryRecordOfRow, eventOfRow } = StoredRows

type Row = Record<string, unknown>

const FAN_OUT_BATCH = 500

// the events not yet fanned out, locked so that two instances never fan out one event twice
const FAN_OUT = `
  WITH fresh AS (
    SELECT position FROM quote_events WHERE fanned_out_at IS NULL ORDER BY position LIMIT ${FAN_OUT_BATCH}
    FOR UPDATE SKIP LOCKED
  ), marked AS (
    UPDATE quote_events e SET fanned_out_at = $1 FROM fresh WHERE e.position = fresh.position
    RETURNING e.position, e.event_id, e.type, e.partner_id, e.quote_id
  )
  INSERT INTO webhook_deliveries (delivery_id, subscription_id, event_position, event_id, partner_id, quote_id, state,
                                  attempts, created_at, next_attempt_at)
  SELECT 'dlv_' || s.subscription_id || '_' || m.event_id, s.subscription_id, m.position, m.event_id, m.partner_id,
         m.quote_id, 'pending', 0, $1, $1
  FROM marked m JOIN webhook_subscriptions s ON s.partner_id = m.partner_id AND m.type = ANY (s.event_types)
  ON CONFLICT (delivery_id) DO NOTHING`

const CLAIM = `
  WITH due AS (
    SELECT d.delivery_id FROM webhook_deliveries d
    WHERE d.state = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)
      AND NOT EXISTS (
        SELECT 1 FROM webhook_deliveries earlier
        WHERE earlier.subscription_id = d.subscription_id AND earlier.quote_id = d.quote_id
          AND earlier.state = 'pending' AND earlier.event_position < d.event_position)
      -- nor while an earlier event of the quote is not fanned out yet: another instance may be fanning it out
      -- right now (its row locked, skipped above), and its delivery must go first
      AND NOT EXISTS (
        SELECT 1 FROM quote_events unsent
        WHERE unsent.quote_id = d.quote_id AND unsent.fanned_out_at IS NULL AND unsent.position < d.event_position)
    ORDER BY d.next_attempt_at, d.event_position
    LIMIT $4
    FOR UPDATE SKIP LOCKED
  )
  UPDATE webhook_deliveries d SET lease_owner = $2, lease_until = $1 + $3::bigint
  FROM due, webhook_subscriptions s, quote_events e
  WHERE d.delivery_id = due.delivery_id AND s.subscription_id = d.subscription_id AND e.event_id = d.event_id
  RETURNING d.delivery_id, d.attempts, d.first_attempt_at, d.next_attempt_at, d.event_position, s.url, s.secret,
            ${EVENT_COLUMNS.split(", ")
              .map((column) => `e.${column}`)
              .join(", ")}`

const RECORD = `
  UPDATE webhook_deliveries
  SET state = $3, attempts = attempts + 1, first_attempt_at = COALESCE(first_attempt_at, $4),
      last_attempt_at = $4, last_error = $5, next_attempt_at = $6, lease_owner = NULL, lease_until = NULL
  WHERE delivery_id = $1 AND lease_owner = $2 AND state = 'pending'`

const recordValues = (deliveryId: string, owner: string, outcome: EventOutbox.AttemptOutcome) => [
  deliveryId,
  owner,
  outcome.delivered ? "delivered" : outcome.retryAt === undefined ? "dead_lettered" : "pending",
  outcome.at,
  outcome.delivered ? null : outcome.error,
  outcome.delivered ? null : (outcome.retryAt ?? null)
]

export const makeEventOutbox = (pool: pg.Pool): EventOutbox.EventOutbox["Type"] => ({
  eventsOfQuote: (quoteId) =>
    attempt("read quote events", () =>
      pool.query(`SELECT ${EVENT_COLUMNS} FROM quote_events WHERE quote_id = $1 ORDER BY position`, [quoteId])
    ).pipe(Effect.map((result) => result.rows.map(eventOfRow))),
  claimDeliveries: ({ now, owner, leaseMillis, limit }) =>
    transaction(pool, "claim webhook deliveries", async (statement) => {
      await statement(FAN_OUT, [now])
      const claimed = await statement<Row>(CLAIM, [now, owner, leaseMillis, limit])
      return claimed.rows
        .sort(
          (a, b) =>
            Number(a["next_attempt_at"]) - Number(b["next_attempt_at"]) ||
            Number(a["event_position"]) - Number(b["event_position"])
        )
        .map(claimedDeliveryOfRow)
    }),
  recordAttempt: (deliveryId, owner, outcome) =>
    attempt("record a webhook delivery", () => pool.query(RECORD, recordValues(deliveryId, owner, outcome))).pipe(
      Effect.map((result) => result.rowCount === 1)
    ),
  recordAttempts: (owner, attempts) =>
    transaction(pool, "record webhook deliveries", async (statement) => {
      let recorded = 0
      for (const { deliveryId, outcome } of attempts)
        recorded += (await statement(RECORD, recordValues(deliveryId, owner, outcome))).rowCount ?? 0
      return recorded
    }),
  deliveriesOf: (partnerId, { limit, deadLetteredOnly }) =>
    attempt("list webhook deliveries", () =>
      pool.query<Row>(
        `SELECT d.delivery_id, d.event_id, e.type AS event_type, d.quote_id, d.subscription_id, s.url, d.state,
                d.attempts, d.created_at, d.last_attempt_at, d.last_error, d.next_attempt_at
         FROM webhook_deliveries d
         JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
         JOIN quote_events e ON e.event_id = d.event_id
         WHERE d.partner_id = $1 AND (NOT $2 OR d.state = 'dead_lettered')
         ORDER BY d.created_at DESC, d.event_position DESC
         LIMIT $3`,
        [partnerId, deadLetteredOnly, limit]
      )
    ).pipe(Effect.map((result) => result.rows.map(deliveryRecordOfRow))),
  replay: (partnerId, deliveryId, now) =>
    attempt("replay a webhook delivery", () =>
      pool.query(
        `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $1, first_attempt_at = NULL
         WHERE delivery_id = $2 AND partner_id = $3 AND state = 'dead_lettered'`,
        [now, deliveryId, partnerId]
      )
    ).pipe(Effect.map((result) => result.rowCount === 1)),
  backlog: attempt("read the webhook backlog", () =>
    pool.query<Row>(`
      SELECT (SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending') AS pending,
             (SELECT MIN(e.occurred_at) FROM webhook_deliveries d JOIN quote_events e ON e.event_id = d.event_id
              WHERE d.state = 'pending') AS oldest_pending,
             (SELECT MIN(occurred_at) FROM quote_events WHERE fanned_out_at IS NULL) AS oldest_new`)
  ).pipe(
    Effect.map(({ rows: [row] }) =>
      StoredRows.backlogOf(row?.["pending"], row?.["oldest_pending"], row?.["oldest_new"])
    )
  )
})
