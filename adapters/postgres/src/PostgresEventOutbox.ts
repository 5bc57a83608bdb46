/**
 * The event outbox and webhook deliveries on PostgreSQL, shared by every
 * instance: a claim fans out new events and leases due deliveries in one
 * transaction, taking rows with FOR UPDATE SKIP LOCKED, so concurrent
 * dispatchers take different rows and none waits for another. A lease that
 * lapses (its instance crashed) makes the delivery claimable again. Both
 * steps go partner by partner through indexes that begin with the partner
 * and are bounded (`DeliveryAllowance`): a claim costs about the same
 * whatever one partner's backlog, and no partner's backlog holds back
 * another's new events or due deliveries.
 * @module
 */
import { EventOutbox } from "@kasko/core"
import { DeliveryAllowance } from "@kasko/core/storage"
import { StoredRows } from "@kasko/sql"
import { Effect } from "effect"
import type pg from "pg"
import { attempt } from "./PostgresErrors.js"
import { type Statement, transaction } from "./Transaction.js"

const { EVENT_COLUMNS, claimedDeliveryOfRow, deliveryRecordOfRow, eventOfRow } = StoredRows

type Row = Record<string, unknown>
type DueRow = Row & { subscription_id: string; next_attempt_at: unknown; event_position: unknown }

/**
 * The partners with rows in a partial index led by partner_id (a loose index scan: one probe per partner),
 * each with the least of `oldest` over its rows, the partner whose oldest row has waited longest first.
 */
const partnersByOldest = (table: string, condition: string, oldest: string) => `
  WITH RECURSIVE partners (partner_id) AS (
    (SELECT partner_id FROM ${table} WHERE ${condition} ORDER BY partner_id LIMIT 1)
    UNION ALL
    SELECT (SELECT t.partner_id FROM ${table} t WHERE ${condition} AND t.partner_id > partners.partner_id
            ORDER BY t.partner_id LIMIT 1)
    FROM partners WHERE partners.partner_id IS NOT NULL
  )
  SELECT partner_id,
         (SELECT MIN(${oldest}) FROM ${table} t WHERE t.partner_id = partners.partner_id AND ${condition}) AS oldest
  FROM partners WHERE partner_id IS NOT NULL
  ORDER BY oldest, partner_id`

const PARTNERS_WITH_NEW_EVENTS = partnersByOldest("quote_events", "fanned_out_at IS NULL", "position")
const PARTNERS_WITH_PENDING = partnersByOldest("webhook_deliveries", "state = 'pending'", "next_attempt_at")

// a partner's oldest new events, as many as fan out to about $3 deliveries (one at least), locked so that two
// instances never fan out one event twice; answers a row per delivery made
const FAN_OUT_OF_PARTNER = `
  WITH fresh AS (
    SELECT position FROM quote_events
    WHERE partner_id = $2 AND fanned_out_at IS NULL
    ORDER BY position
    LIMIT GREATEST(1, $3::int / GREATEST(1, (SELECT COUNT(*) FROM webhook_subscriptions WHERE partner_id = $2)::int))
    FOR UPDATE SKIP LOCKED
  ), marked AS (
    UPDATE quote_events e SET fanned_out_at = $1 FROM fresh WHERE e.position = fresh.position
    RETURNING e.position, e.event_id, e.type, e.partner_id, e.quote_id
  )
  INSERT INTO webhook_deliveries (delivery_id, subscription_id, event_position, event_id, partner_id, quote_id, state,
                                  attempts, created_at, next_attempt_at)
  SELECT 'dlv_' || s.subscription_id || '_' || m.event_id, s.subscription_id, m.position, m.event_id, m.partner_id,
         m.quote_id, 'pending', 0, $1, $1
  FROM marked m JOIN webhook_subscriptions s
    ON s.partner_id = m.partner_id AND m.type = ANY (s.event_types) AND s.disabled_at IS NULL
  ON CONFLICT (delivery_id) DO NOTHING`

const DUE_COLUMNS = `d.delivery_id, d.subscription_id, d.partner_id, d.attempts, d.first_attempt_at,
  d.next_attempt_at, d.event_position, s.url, s.secret, s.failing_since, ${EVENT_COLUMNS.split(", ")
    .filter((column) => column !== "partner_id")
    .map((column) => `e.${column}`)
    .join(", ")}`

// a disabled subscription's: a fan-out from a snapshot before the disable may have made one after it
const DUE_CONDITION = `d.state = 'pending' AND d.next_attempt_at <= $1 AND s.disabled_at IS NULL
  AND (d.lease_until IS NULL OR d.lease_until <= $1)
  AND NOT EXISTS (
    SELECT 1 FROM webhook_deliveries earlier
    WHERE earlier.subscription_id = d.subscription_id AND earlier.quote_id = d.quote_id
      AND earlier.state = 'pending' AND earlier.event_position < d.event_position)
  -- nor while an earlier event of the quote is not fanned out yet: another instance may be fanning it out
  -- right now (its row locked), and its delivery must go first
  AND NOT EXISTS (
    SELECT 1 FROM quote_events unsent
    WHERE unsent.quote_id = d.quote_id AND unsent.fanned_out_at IS NULL AND unsent.position < d.event_position)`

// each partner's due deliveries, oldest first, at most $3 of each, locked against other instances' claims; but
// for those of its slow endpoints ($4, read apart below): theirs would fill the head of the line
const CANDIDATES = `
  SELECT c.* FROM unnest($2::text[]) AS partners (partner_id)
  CROSS JOIN LATERAL (
    SELECT ${DUE_COLUMNS}
    FROM webhook_deliveries d
    JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
    JOIN quote_events e ON e.event_id = d.event_id
    WHERE d.partner_id = partners.partner_id AND ${DUE_CONDITION} AND d.subscription_id <> ALL ($4::text[])
    ORDER BY d.next_attempt_at, d.event_position
    LIMIT $3
    FOR UPDATE OF d SKIP LOCKED
  ) c`

// each slow endpoint's due deliveries, at most $3 of each (its share)
const CANDIDATES_OF_SLOW = `
  SELECT c.* FROM unnest($2::text[]) AS slow (subscription_id)
  CROSS JOIN LATERAL (
    SELECT ${DUE_COLUMNS}
    FROM webhook_deliveries d
    JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
    JOIN quote_events e ON e.event_id = d.event_id
    WHERE d.subscription_id = slow.subscription_id AND ${DUE_CONDITION}
    ORDER BY d.next_attempt_at, d.event_position
    LIMIT $3
    FOR UPDATE OF d SKIP LOCKED
  ) c`

const LEASE =
  "UPDATE webhook_deliveries SET lease_owner = $2, lease_until = $1 + $3::bigint WHERE delivery_id = ANY ($4)"

/** Fans out new events, partner by partner, oldest first, each partner's share and the claim's bounded. */
const fanOut = async (statement: Statement, now: number) => {
  let made = 0
  const partners = (await statement<{ partner_id: string }>(PARTNERS_WITH_NEW_EVENTS)).rows
  const share = DeliveryAllowance.fanOutShare(partners.length)
  for (const { partner_id } of partners) {
    if (made >= DeliveryAllowance.FAN_OUT_PER_CLAIM) return
    made += (await statement(FAN_OUT_OF_PARTNER, [now, partner_id, share])).rowCount ?? 0
  }
}

// a dead letter its partner may replay: a disabled subscription's wait until it is enabled
const REPLAYABLE = `state = 'dead_lettered' AND subscription_id NOT IN (
  SELECT subscription_id FROM webhook_subscriptions WHERE disabled_at IS NOT NULL)`

const RECORD = `
  UPDATE webhook_deliveries
  SET state = $3, attempts = attempts + 1, first_attempt_at = COALESCE(first_attempt_at, $4),
      last_attempt_at = $4, last_error = $5, next_attempt_at = $6, lease_owner = NULL, lease_until = NULL,
      attempt_log = (
        SELECT CASE WHEN jsonb_array_length(log) > ${EventOutbox.ATTEMPT_LOG_LENGTH} THEN log - 0 ELSE log END
        FROM (SELECT COALESCE(attempt_log, '[]'::jsonb)
                || jsonb_build_array(jsonb_build_object('at', $4::bigint, 'status', $7::int, 'error', $5::text)) AS log) l)
  WHERE delivery_id = $1 AND lease_owner = $2 AND state = 'pending'`

// each subscription of a round ($1: its deliveries' ids, $2: whether each was delivered, $3: each attempt's time):
// cleared by a delivery, set by the first failure after one
const RECORD_FAILING = `
  UPDATE webhook_subscriptions s
  SET failing_since = CASE WHEN o.delivered THEN NULL ELSE COALESCE(s.failing_since, o.first_failure) END
  FROM (SELECT d.subscription_id, bool_or(a.delivered) AS delivered, MIN(a.at) AS first_failure
        FROM unnest($1::text[], $2::boolean[], $3::bigint[]) AS a (delivery_id, delivered, at)
        JOIN webhook_deliveries d ON d.delivery_id = a.delivery_id
        GROUP BY d.subscription_id) o
  WHERE s.subscription_id = o.subscription_id
    -- rows that would not change are not written: no lock held for nothing while the round records
    AND s.failing_since IS DISTINCT FROM (CASE WHEN o.delivered THEN NULL ELSE COALESCE(s.failing_since, o.first_failure) END)`

const failingValues = (
  attempts: ReadonlyArray<{ readonly deliveryId: string; readonly outcome: EventOutbox.AttemptOutcome }>
) => [
  attempts.map(({ deliveryId }) => deliveryId),
  attempts.map(({ outcome }) => outcome.delivered),
  attempts.map(({ outcome }) => outcome.at)
]

const recordValues = (deliveryId: string, owner: string, outcome: EventOutbox.AttemptOutcome) => [
  deliveryId,
  owner,
  outcome.delivered ? "delivered" : outcome.retryAt === undefined ? "dead_lettered" : "pending",
  outcome.at,
  outcome.delivered ? null : outcome.error,
  outcome.delivered ? null : (outcome.retryAt ?? null),
  outcome.status ?? null
]

/** The EventOutbox on a pool whose schema is migrated: what `PostgresStores.layer` provides. */
export const makeEventOutbox = (pool: pg.Pool): EventOutbox.EventOutbox["Service"] => ({
  eventsOfQuote: (quoteId) =>
    attempt("read quote events", () =>
      pool.query(`SELECT ${EVENT_COLUMNS} FROM quote_events WHERE quote_id = $1 ORDER BY position`, [quoteId])
    ).pipe(Effect.map((result) => result.rows.map(eventOfRow))),
  claimDeliveries: (request) =>
    transaction(pool, "claim webhook deliveries", async (statement) => {
      const { now, owner, leaseMillis } = request
      await fanOut(statement, now)
      const due = (await statement<{ partner_id: string; oldest: string }>(PARTNERS_WITH_PENDING)).rows
        .map(({ partner_id, oldest }) => ({ partner_id, oldest: Number(oldest) }))
        .filter(({ oldest }) => oldest <= now)
      if (due.length === 0) return []
      const slow = [...(request.slowSubscriptions ?? [])]
      const candidates = [
        ...(
          await statement<Row>(CANDIDATES, [
            now,
            due.map(({ partner_id }) => partner_id),
            DeliveryAllowance.candidatesPerPartner(request, due.length),
            slow
          ])
        ).rows,
        ...(slow.length === 0
          ? []
          : (
              await statement<Row>(CANDIDATES_OF_SLOW, [
                now,
                slow,
                DeliveryAllowance.candidatesPerSlowSubscription(request)
              ])
            ).rows)
      ] as Array<DueRow>
      const chosen = DeliveryAllowance.choose(
        request,
        due.map((partner) => ({
          ...partner,
          candidates: DeliveryAllowance.inOrder(candidates.filter((row) => row["partner_id"] === partner.partner_id))
        }))
      )
      if (chosen.length > 0)
        await statement(LEASE, [now, owner, leaseMillis, chosen.map((row) => String(row["delivery_id"]))])
      return chosen.map(claimedDeliveryOfRow)
    }),
  recordAttempt: (deliveryId, owner, outcome) =>
    transaction(pool, "record a webhook delivery", async (statement) => {
      await statement(RECORD_FAILING, failingValues([{ deliveryId, outcome }]))
      return (await statement(RECORD, recordValues(deliveryId, owner, outcome))).rowCount === 1
    }),
  recordAttempts: (owner, attempts) =>
    transaction(pool, "record webhook deliveries", async (statement) => {
      await statement(RECORD_FAILING, failingValues(attempts))
      let recorded = 0
      for (const { deliveryId, outcome } of attempts)
        recorded += (await statement(RECORD, recordValues(deliveryId, owner, outcome))).rowCount ?? 0
      return recorded
    }),
  deliveriesOf: (partnerId, { limit, deadLetteredOnly }) =>
    attempt("list webhook deliveries", () =>
      pool.query<Row>(
        `SELECT d.delivery_id, d.event_id, e.type AS event_type, d.quote_id, d.subscription_id, s.url, d.state,
                d.attempts, d.created_at, d.last_attempt_at, d.last_error, d.next_attempt_at, d.attempt_log
         FROM webhook_deliveries d
         JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
         JOIN quote_events e ON e.event_id = d.event_id
         WHERE d.partner_id = $1 AND (NOT $2 OR d.state = 'dead_lettered')
         ORDER BY d.created_at DESC, d.event_position DESC
         LIMIT $3`,
        [partnerId, deadLetteredOnly, limit]
      )
    ).pipe(Effect.map((result) => result.rows.map(deliveryRecordOfRow))),
  disableSubscription: (subscriptionId, reason, at, failingSinceAtOrBefore) =>
    transaction(pool, "disable a webhook subscription", async (statement) => {
      // failing too long: only while the stored failing_since says so, not a delivery's stale read of it
      const disabled = await statement(
        `UPDATE webhook_subscriptions SET disabled_at = $2, disabled_reason = $3
         WHERE subscription_id = $1 AND disabled_at IS NULL AND ($4::bigint IS NULL OR failing_since <= $4::bigint)`,
        [subscriptionId, at, reason, failingSinceAtOrBefore ?? null]
      )
      if (disabled.rowCount !== 1) return false
      await statement(
        `UPDATE webhook_deliveries SET state = 'dead_lettered', next_attempt_at = NULL, lease_owner = NULL,
           lease_until = NULL, last_error = 'the subscription was disabled: ' || $2
         WHERE subscription_id = $1 AND state = 'pending'`,
        [subscriptionId, reason]
      )
      return true
    }),
  replay: (partnerId, deliveryId, now) =>
    attempt("replay a webhook delivery", () =>
      // one statement: the select sees the delivery as it was before the update, and whether the update took it
      pool.query<{ state: EventOutbox.DeliveryState; subscription_id: string; replayed: boolean }>(
        `WITH replayed AS (
           UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $1, first_attempt_at = NULL
           WHERE delivery_id = $2 AND partner_id = $3 AND ${REPLAYABLE}
           RETURNING delivery_id)
         SELECT state, subscription_id, EXISTS (SELECT 1 FROM replayed) AS replayed
         FROM webhook_deliveries WHERE delivery_id = $2 AND partner_id = $3`,
        [now, deliveryId, partnerId]
      )
    ).pipe(
      Effect.map(({ rows: [found] }): EventOutbox.ReplayOutcome => {
        if (found === undefined) return { _tag: "NotFound" }
        if (found.replayed) return { _tag: "Replayed" }
        return { _tag: "NotReplayable", state: found.state, subscription_id: found.subscription_id }
      })
    ),
  replaySince: (partnerId, since, now, limit) =>
    transaction(pool, "replay webhook deliveries", async (statement) => {
      // the oldest first, in one statement: a quote's earlier event is pending again before its later one
      const replayed = await statement(
        `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $1, first_attempt_at = NULL
         WHERE delivery_id IN (
           SELECT delivery_id FROM webhook_deliveries
           WHERE partner_id = $3 AND created_at >= $2 AND ${REPLAYABLE}
           ORDER BY created_at, event_position
           LIMIT $4
           FOR UPDATE SKIP LOCKED)`,
        [now, since, partnerId, limit]
      )
      const more = await statement<{ more: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE partner_id = $2 AND created_at >= $1 AND ${REPLAYABLE})
           AS more`,
        [since, partnerId]
      )
      return { replayed: replayed.rowCount ?? 0, more: more.rows[0]?.more === true }
    }),
  backlog: attempt("read the webhook backlog", () =>
    pool.query<Row>(`
      SELECT (SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending') AS pending,
             (SELECT occurred_at FROM quote_events
              WHERE position = (SELECT MIN(event_position) FROM webhook_deliveries WHERE state = 'pending'))
               AS oldest_pending,
             (SELECT MIN(occurred_at) FROM quote_events WHERE fanned_out_at IS NULL) AS oldest_new`)
  ).pipe(
    Effect.map(({ rows: [row] }) =>
      StoredRows.backlogOf(row?.["pending"], row?.["oldest_pending"], row?.["oldest_new"])
    )
  )
})
