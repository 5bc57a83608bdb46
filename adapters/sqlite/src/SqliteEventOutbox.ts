/**
 * The event outbox and webhook deliveries on SQLite, over the connection the
 * QuoteStore writes its events on. One writer at a time (IMMEDIATE
 * transactions), so a claim needs no row locks: it fans out what is new
 * (each subscribed partner's events past its cursor in webhook_fan_out), then
 * leases what is due, in one transaction. Both steps are bounded and go
 * partner by partner through indexes that begin with the partner, so a claim
 * costs about the same whatever one partner's backlog (a fraction of a
 * millisecond with 100 000 deliveries pending) and no partner's backlog
 * delays another's new events or due deliveries.
 * @module
 */
import { EventOutbox } from "@kasko/core"
import { DeliveryAllowance } from "@kasko/core/storage"
import { StoredRows } from "@kasko/sql"
import type Database from "better-sqlite3"
import { attempt } from "./SqliteErrors.js"

const { EVENT_COLUMNS, claimedDeliveryOfRow, deliveryRecordOfRow, eventOfRow } = StoredRows

type Row = Record<string, unknown>
interface DueRow {
  readonly delivery_id: string
  readonly subscription_id: string
  readonly partner_id: string
  readonly next_attempt_at: number
  readonly event_position: number
}

const { FAN_OUT_PER_CLAIM } = DeliveryAllowance

/**
 * The partners with rows in a partial index led by partner_id (a loose index scan: one probe per partner),
 * each with the least of `oldest` over its rows, the partner whose oldest row has waited longest first.
 */
const partnersByOldest = (table: string, condition: string, oldest: string) => `
  WITH RECURSIVE partners (partner_id) AS (
    SELECT MIN(partner_id) FROM ${table} WHERE ${condition}
    UNION ALL
    SELECT (SELECT MIN(partner_id) FROM ${table} WHERE ${condition} AND partner_id > partners.partner_id)
    FROM partners WHERE partner_id IS NOT NULL
  )
  SELECT partner_id, oldest FROM (
    SELECT partner_id,
           (SELECT MIN(${oldest}) FROM ${table} rows WHERE rows.partner_id = partners.partner_id AND ${condition}) AS oldest
    FROM partners WHERE partner_id IS NOT NULL)
  ORDER BY oldest, partner_id`

/** The EventOutbox on an open, migrated database: what `SqliteQuoteStore.layer` and `SqliteStores.layer` provide. */
export const makeEventOutbox = (database: Database.Database): EventOutbox.EventOutbox["Service"] => {
  const selectOfQuote = database.prepare<[string], Row>(
    `SELECT ${EVENT_COLUMNS} FROM quote_events WHERE quote_id = ? ORDER BY position`
  )
  // the subscribed partners with events past their fan-out cursor, the one whose oldest such event waited longest first
  const partnersWithNewEvents = database.prepare<[], { partner_id: string; fanned_out_to: number }>(`
    SELECT partner_id, fanned_out_to FROM (
      SELECT f.partner_id, f.fanned_out_to,
             (SELECT MIN(position) FROM quote_events e
              WHERE e.partner_id = f.partner_id AND e.position > f.fanned_out_to) AS oldest
      FROM webhook_fan_out f)
    WHERE oldest IS NOT NULL
    ORDER BY oldest, partner_id`)
  // the last of a partner's oldest new events, as many as fan out to about \`rows\` deliveries (one at least)
  const lastNewOfPartner = database.prepare<{ partner_id: string; after: number; rows: number }, { upto: number }>(`
    SELECT MAX(position) AS upto FROM (
      SELECT position FROM quote_events
      WHERE partner_id = @partner_id AND position > @after
      ORDER BY position
      LIMIT MAX(1, CAST(@rows AS INTEGER) / MAX(1, (SELECT COUNT(*) FROM webhook_subscriptions WHERE partner_id = @partner_id))))`)
  // one statement for a partner's range of events: a statement per event cost more than the rows it wrote
  const insertDeliveries = database.prepare<{ now: number; partner_id: string; after: number; upto: number }>(`
    INSERT INTO webhook_deliveries (delivery_id, subscription_id, event_position, event_id, partner_id, quote_id, state,
                                    attempts, created_at, next_attempt_at)
    SELECT 'dlv_' || s.subscription_id || '_' || e.event_id, s.subscription_id, e.position, e.event_id, e.partner_id,
           e.quote_id, 'pending', 0, @now, @now
    FROM quote_events e JOIN webhook_subscriptions s ON s.partner_id = e.partner_id AND s.disabled_at IS NULL
    WHERE e.partner_id = @partner_id AND e.position > @after AND e.position <= @upto
      AND EXISTS (SELECT 1 FROM json_each(s.event_types) WHERE value = e.type)
    ON CONFLICT (delivery_id) DO NOTHING`)
  const advanceFanOut = database.prepare<[number, string]>(
    "UPDATE webhook_fan_out SET fanned_out_to = ? WHERE partner_id = ?"
  )
  // the partners with pending deliveries; those whose oldest is not due yet are left out when read
  const pendingPartners = database.prepare<[], { partner_id: string; oldest: number }>(
    partnersByOldest("webhook_deliveries", "state = 'pending'", "next_attempt_at")
  )
  // a candidate is read with what choosing needs; only those chosen are read whole (event payload, url, secret):
  // a claim reads about twice the candidates it takes, and reading the payloads cost more than the rest of it
  const candidateColumns = "d.delivery_id, d.subscription_id, d.partner_id, d.next_attempt_at, d.event_position"
  const claimedColumns = `d.delivery_id, d.subscription_id, d.attempts, d.first_attempt_at, s.url, s.secret, s.failing_since,
    ${EVENT_COLUMNS.split(", ")
      .filter((column) => column !== "partner_id")
      .map((column) => `e.${column}`)
      .join(", ")}, d.partner_id`
  const dueCondition = `d.state = 'pending' AND d.next_attempt_at <= @now
      AND (d.lease_until IS NULL OR d.lease_until <= @now)
      AND NOT EXISTS (
        SELECT 1 FROM webhook_deliveries earlier
        WHERE earlier.subscription_id = d.subscription_id AND earlier.quote_id = d.quote_id
          AND earlier.state = 'pending' AND earlier.event_position < d.event_position)`
  // a partner's due deliveries, but for those of its slow endpoints (read apart, below): theirs would fill the
  // head of the line and hide every other endpoint's
  const selectDueOfPartner = database.prepare<
    { partner_id: string; now: number; limit: number; slow: string },
    DueRow
  >(`
    SELECT ${candidateColumns}
    FROM webhook_deliveries d
    WHERE d.partner_id = @partner_id AND ${dueCondition}
      AND d.subscription_id NOT IN (SELECT value FROM json_each(@slow))
    ORDER BY d.next_attempt_at, d.event_position
    LIMIT @limit`)
  const selectDueOfSubscription = database.prepare<{ subscription_id: string; now: number; limit: number }, DueRow>(`
    SELECT ${candidateColumns}
    FROM webhook_deliveries d
    WHERE d.subscription_id = @subscription_id AND ${dueCondition}
    ORDER BY d.next_attempt_at, d.event_position
    LIMIT @limit`)
  // the chosen deliveries (a JSON array of their ids) leased and read in one statement each, not one per delivery
  const selectClaimed = database.prepare<[string], Row>(`
    SELECT ${claimedColumns}
    FROM webhook_deliveries d
    JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
    JOIN quote_events e ON e.position = d.event_position
    WHERE d.delivery_id IN (SELECT value FROM json_each(?))`)
  const lease = database.prepare<[string, number, string]>(
    "UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ? WHERE delivery_id IN (SELECT value FROM json_each(?))"
  )
  // a round's outcomes (a JSON array) recorded in one statement, each only while the recorder holds its lease
  const record = database.prepare<[string, string]>(`
    UPDATE webhook_deliveries AS d
    SET state = o.state, attempts = d.attempts + 1, first_attempt_at = COALESCE(d.first_attempt_at, o.at),
        last_attempt_at = o.at, last_error = o.error, next_attempt_at = o.next, lease_owner = NULL, lease_until = NULL,
        attempt_log = (SELECT CASE WHEN json_array_length(log) > ${EventOutbox.ATTEMPT_LOG_LENGTH}
                                   THEN json_remove(log, '$[0]') ELSE log END
                       FROM (SELECT json_insert(COALESCE(d.attempt_log, '[]'), '$[#]',
                                                json_object('at', o.at, 'status', o.status, 'error', o.error)) AS log))
    FROM (SELECT value ->> 'delivery_id' AS delivery_id, value ->> 'state' AS state, value ->> 'at' AS at,
                 value ->> 'error' AS error, value ->> 'next' AS next, value ->> 'status' AS status
          FROM json_each(?)) AS o
    WHERE d.delivery_id = o.delivery_id AND d.lease_owner = ? AND d.state = 'pending'`)
  // each subscription of a round: cleared by a delivery, set by the first failure after one
  const recordFailing = database.prepare<[string]>(`
    UPDATE webhook_subscriptions AS s
    SET failing_since = CASE WHEN o.delivered THEN NULL ELSE COALESCE(s.failing_since, o.first_failure) END
    FROM (SELECT d.subscription_id, MAX(j.value ->> 'state' = 'delivered') AS delivered, MIN(j.value ->> 'at') AS first_failure
          FROM json_each(?) j JOIN webhook_deliveries d ON d.delivery_id = j.value ->> 'delivery_id'
          GROUP BY d.subscription_id) AS o
    WHERE s.subscription_id = o.subscription_id
      -- rows that would not change are not written (the happy path's every round)
      AND s.failing_since IS NOT (CASE WHEN o.delivered THEN NULL ELSE COALESCE(s.failing_since, o.first_failure) END)`)
  // failing too long: only while the stored failing_since says so, not a delivery's stale read of it
  const disable = database.prepare<{ subscription_id: string; reason: string; at: number; failing_by: number | null }>(
    `UPDATE webhook_subscriptions SET disabled_at = @at, disabled_reason = @reason
     WHERE subscription_id = @subscription_id AND disabled_at IS NULL
       AND (@failing_by IS NULL OR failing_since <= @failing_by)`
  )
  const deadLetterPendingOf = database.prepare<{ subscription_id: string; reason: string }>(
    `UPDATE webhook_deliveries SET state = 'dead_lettered', next_attempt_at = NULL, lease_owner = NULL,
       lease_until = NULL, last_error = 'the subscription was disabled: ' || @reason
     WHERE subscription_id = @subscription_id AND state = 'pending'`
  )
  const disableWithDeliveries = database.transaction(
    (subscription_id: string, reason: string, at: number, failing_by: number | null) => {
      if (disable.run({ subscription_id, reason, at, failing_by }).changes === 0) return false
      deadLetterPendingOf.run({ subscription_id, reason })
      return true
    }
  )
  const selectOfPartner = database.prepare<[string, number, number], Row>(`
    SELECT d.delivery_id, d.event_id, e.type AS event_type, d.quote_id, d.subscription_id, s.url, d.state, d.attempts,
           d.created_at, d.last_attempt_at, d.last_error, d.next_attempt_at, d.attempt_log
    FROM webhook_deliveries d
    JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
    JOIN quote_events e ON e.event_id = d.event_id
    WHERE d.partner_id = ? AND (? = 0 OR d.state = 'dead_lettered')
    ORDER BY d.created_at DESC, d.event_position DESC
    LIMIT ?`)
  // a disabled subscription's dead letters wait until it is enabled
  const replayable = `state = 'dead_lettered' AND subscription_id NOT IN (
      SELECT subscription_id FROM webhook_subscriptions WHERE partner_id = @partner_id AND disabled_at IS NOT NULL)`
  const replay = database.prepare<{ now: number; delivery_id: string; partner_id: string }>(`
    UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = @now, first_attempt_at = NULL
    WHERE delivery_id = @delivery_id AND partner_id = @partner_id AND ${replayable}`)
  const selectOne = database.prepare<
    { delivery_id: string; partner_id: string },
    { state: EventOutbox.DeliveryState; subscription_id: string }
  >(
    `SELECT state, subscription_id FROM webhook_deliveries WHERE delivery_id = @delivery_id AND partner_id = @partner_id`
  )
  // what the delivery is, read in the write that did not replay it: no other writer comes between
  const replayOne = database.transaction(
    (partner_id: string, delivery_id: string, now: number): EventOutbox.ReplayOutcome => {
      if (replay.run({ now, delivery_id, partner_id }).changes === 1) return { _tag: "Replayed" }
      const found = selectOne.get({ delivery_id, partner_id })
      return found === undefined
        ? { _tag: "NotFound" }
        : { _tag: "NotReplayable", state: found.state, subscription_id: found.subscription_id }
    }
  )
  // the oldest first, in one statement: a quote's earlier event is pending again before its later one can be claimed
  const replaySince = database.prepare<{ now: number; partner_id: string; since: number; limit: number }>(`
    UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = @now, first_attempt_at = NULL
    WHERE delivery_id IN (
      SELECT delivery_id FROM webhook_deliveries
      WHERE partner_id = @partner_id AND created_at >= @since AND ${replayable}
      ORDER BY created_at, event_position
      LIMIT @limit)`)
  const anyReplayableSince = database.prepare<{ partner_id: string; since: number }, { more: number }>(`
    SELECT EXISTS (SELECT 1 FROM webhook_deliveries
                   WHERE partner_id = @partner_id AND created_at >= @since AND ${replayable}) AS more`)
  const replayOldestSince = database.transaction((partner_id: string, since: number, now: number, limit: number) => {
    const replayed = replaySince.run({ now, partner_id, since, limit }).changes
    return { replayed, more: anyReplayableSince.get({ partner_id, since })!.more === 1 }
  })

  const selectBacklog = database.prepare<
    [],
    { pending: number; oldest_pending: number | null; oldest_new: number | null }
  >(`
    SELECT (SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending') AS pending,
           (SELECT occurred_at FROM quote_events
            WHERE position = (SELECT MIN(event_position) FROM webhook_deliveries WHERE state = 'pending')) AS oldest_pending,
           (SELECT MIN((SELECT occurred_at FROM quote_events e
                        WHERE e.partner_id = f.partner_id AND e.position > f.fanned_out_to
                        ORDER BY e.position LIMIT 1))
            FROM webhook_fan_out f) AS oldest_new`)

  const recordRows = (
    owner: string,
    attempts: ReadonlyArray<{ readonly deliveryId: string; readonly outcome: EventOutbox.AttemptOutcome }>
  ): number => {
    const outcomes = JSON.stringify(
      attempts.map(({ deliveryId, outcome }) => ({
        delivery_id: deliveryId,
        at: outcome.at,
        state: outcome.delivered ? "delivered" : outcome.retryAt === undefined ? "dead_lettered" : "pending",
        error: outcome.delivered ? null : outcome.error,
        next: outcome.delivered ? null : (outcome.retryAt ?? null),
        status: outcome.status ?? null
      }))
    )
    recordFailing.run(outcomes)
    return record.run(outcomes, owner).changes
  }
  const recordInOneWrite = database.transaction(recordRows)

  /** Fans out new events, partner by partner, oldest first, each partner's share and the claim's bounded. */
  const fanOut = (now: number) => {
    let made = 0
    const partners = partnersWithNewEvents.all()
    const share = DeliveryAllowance.fanOutShare(partners.length)
    for (const { partner_id, fanned_out_to } of partners) {
      if (made >= FAN_OUT_PER_CLAIM) return
      const { upto } = lastNewOfPartner.get({ partner_id, after: fanned_out_to, rows: share })!
      made += insertDeliveries.run({ now, partner_id, after: fanned_out_to, upto }).changes
      advanceFanOut.run(upto, partner_id)
    }
  }

  const claim = database.transaction((request: EventOutbox.DeliveryClaim) => {
    const { now, owner, leaseMillis } = request
    fanOut(now)
    const due = pendingPartners.all().filter(({ oldest }) => oldest <= now)
    const limit = DeliveryAllowance.candidatesPerPartner(request, due.length)
    const slow = [...(request.slowSubscriptions ?? [])]
    const slowSet = JSON.stringify(slow)
    const ofSlow = slow.flatMap((subscription_id) =>
      selectDueOfSubscription.all({
        subscription_id,
        now,
        limit: DeliveryAllowance.candidatesPerSlowSubscription(request)
      })
    )
    const chosen = DeliveryAllowance.choose(
      request,
      due.map(({ partner_id, oldest }) => ({
        partner_id,
        oldest,
        candidates: DeliveryAllowance.inOrder([
          ...selectDueOfPartner.all({ partner_id, now, limit, slow: slowSet }),
          ...ofSlow.filter((row) => row.partner_id === partner_id)
        ])
      }))
    )
    if (chosen.length === 0) return []
    const ids = JSON.stringify(chosen.map(({ delivery_id }) => delivery_id))
    lease.run(owner, now + leaseMillis, ids)
    const claimed = new Map(selectClaimed.all(ids).map((row) => [row["delivery_id"], claimedDeliveryOfRow(row)]))
    return chosen.map(({ delivery_id }) => claimed.get(delivery_id)!)
  })

  return {
    eventsOfQuote: (quoteId) => attempt("read quote events", () => selectOfQuote.all(quoteId).map(eventOfRow)),
    claimDeliveries: (request) => attempt("claim webhook deliveries", () => claim.immediate(request)),
    recordAttempt: (deliveryId, owner, outcome) =>
      attempt("record a webhook delivery", () => recordInOneWrite.immediate(owner, [{ deliveryId, outcome }]) === 1),
    recordAttempts: (owner, attempts) =>
      attempt("record webhook deliveries", () => recordInOneWrite.immediate(owner, attempts)),
    disableSubscription: (subscriptionId, reason, at, failingSinceAtOrBefore) =>
      attempt("disable a webhook subscription", () =>
        disableWithDeliveries.immediate(subscriptionId, reason, at, failingSinceAtOrBefore ?? null)
      ),
    backlog: attempt("read the webhook backlog", () => {
      const row = selectBacklog.get()!
      return StoredRows.backlogOf(row.pending, row.oldest_pending, row.oldest_new)
    }),
    deliveriesOf: (partnerId, { limit, deadLetteredOnly }) =>
      attempt("list webhook deliveries", () =>
        selectOfPartner.all(partnerId, deadLetteredOnly ? 1 : 0, limit).map(deliveryRecordOfRow)
      ),
    replay: (partnerId, deliveryId, now) =>
      attempt("replay a webhook delivery", () => replayOne.immediate(partnerId, deliveryId, now)),
    replaySince: (partnerId, since, now, limit) =>
      attempt("replay webhook deliveries", () => replayOldestSince.immediate(partnerId, since, now, limit))
  }
}
