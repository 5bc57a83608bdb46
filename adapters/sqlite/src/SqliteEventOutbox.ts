/**
 * The event outbox and webhook deliveries on SQLite, over the connection the
 * QuoteStore writes its events on. One writer at a time (IMMEDIATE
 * transactions), so a claim needs no row locks: it fans out what is new,
 * then leases what is due, in one transaction. Both steps are bounded and go
 * partner by partner through indexes that begin with the partner, so a claim
 * costs about the same whatever one partner's backlog (a fraction of a
 * millisecond with 100 000 deliveries pending) and no partner's backlog
 * delays another's new events or due deliveries.
 */
import type { EventOutbox } from "@kasko/core"
import { DeliveryAllowance } from "@kasko/core/storage"
import { StoredRows } from "@kasko/sql"
import type Database from "better-sqlite3"
import { attempt } from "./SqliteErrors.js"

const { EVENT_COLUMNS, claimedDeliveryOfRow, deliveryRecordOfRow, eventOfRow } = StoredRows

type Row = Record<string, unknown>
type DueRow = Row & { subscription_id: string; next_attempt_at: number; event_position: number }

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

export const makeEventOutbox = (database: Database.Database): EventOutbox.EventOutbox["Service"] => {
  const selectOfQuote = database.prepare<[string], Row>(
    `SELECT ${EVENT_COLUMNS} FROM quote_events WHERE quote_id = ? ORDER BY position`
  )
  const partnersWithNewEvents = database.prepare<[], { partner_id: string }>(
    partnersByOldest("quote_events", "fanned_out_at IS NULL", "position")
  )
  // a partner's oldest new events, as many as fan out to about `rows` deliveries (one at least)
  const selectNewOfPartner = database.prepare<
    { partner_id: string; rows: number },
    { position: number; type: string }
  >(`
    SELECT position, type FROM quote_events
    WHERE partner_id = @partner_id AND fanned_out_at IS NULL
    ORDER BY position
    LIMIT MAX(1, CAST(@rows AS INTEGER) / MAX(1, (SELECT COUNT(*) FROM webhook_subscriptions WHERE partner_id = @partner_id)))`)
  const insertDeliveries = database.prepare<{ now: number; position: number; type: string }>(`
    INSERT INTO webhook_deliveries (delivery_id, subscription_id, event_position, event_id, partner_id, quote_id, state,
                                    attempts, created_at, next_attempt_at)
    SELECT 'dlv_' || s.subscription_id || '_' || e.event_id, s.subscription_id, e.position, e.event_id, e.partner_id,
           e.quote_id, 'pending', 0, @now, @now
    FROM quote_events e JOIN webhook_subscriptions s ON s.partner_id = e.partner_id
    WHERE e.position = @position AND EXISTS (SELECT 1 FROM json_each(s.event_types) WHERE value = @type)
    ON CONFLICT (delivery_id) DO NOTHING`)
  const markFannedOut = database.prepare<[number, number]>(
    "UPDATE quote_events SET fanned_out_at = ? WHERE position = ?"
  )
  // the partners with pending deliveries; those whose oldest is not due yet are left out when read
  const pendingPartners = database.prepare<[], { partner_id: string; oldest: number }>(
    partnersByOldest("webhook_deliveries", "state = 'pending'", "next_attempt_at")
  )
  const dueColumns = `d.delivery_id, d.subscription_id, d.partner_id, d.attempts, d.first_attempt_at, d.next_attempt_at,
    d.event_position, s.url, s.secret, ${EVENT_COLUMNS.split(", ")
      .filter((column) => column !== "partner_id")
      .map((column) => `e.${column}`)
      .join(", ")}`
  const dueCondition = `d.state = 'pending' AND d.next_attempt_at <= @now
      AND (d.lease_until IS NULL OR d.lease_until <= @now)
      AND NOT EXISTS (
        SELECT 1 FROM webhook_deliveries earlier
        WHERE earlier.subscription_id = d.subscription_id AND earlier.quote_id = d.quote_id
          AND earlier.state = 'pending' AND earlier.event_position < d.event_position)`
  // a partner's due deliveries, but for those of its slow endpoints (read apart, below): theirs would fill the
  // head of the line and hide every other endpoint's
  const selectDueOfPartner = database.prepare<{ partner_id: string; now: number; limit: number; slow: string }, Row>(`
    SELECT ${dueColumns}
    FROM webhook_deliveries d
    JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
    JOIN quote_events e ON e.event_id = d.event_id
    WHERE d.partner_id = @partner_id AND ${dueCondition}
      AND d.subscription_id NOT IN (SELECT value FROM json_each(@slow))
    ORDER BY d.next_attempt_at, d.event_position
    LIMIT @limit`)
  const selectDueOfSubscription = database.prepare<{ subscription_id: string; now: number; limit: number }, Row>(`
    SELECT ${dueColumns}
    FROM webhook_deliveries d
    JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
    JOIN quote_events e ON e.event_id = d.event_id
    WHERE d.subscription_id = @subscription_id AND ${dueCondition}
    ORDER BY d.next_attempt_at, d.event_position
    LIMIT @limit`)
  const lease = database.prepare<[string, number, string]>(
    "UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ? WHERE delivery_id = ?"
  )
  const record = database.prepare<{
    delivery_id: string
    owner: string
    at: number
    state: EventOutbox.DeliveryState
    error: string | null
    next: number | null
  }>(`
    UPDATE webhook_deliveries
    SET state = @state, attempts = attempts + 1, first_attempt_at = COALESCE(first_attempt_at, @at),
        last_attempt_at = @at, last_error = @error, next_attempt_at = @next, lease_owner = NULL, lease_until = NULL
    WHERE delivery_id = @delivery_id AND lease_owner = @owner AND state = 'pending'`)
  const selectOfPartner = database.prepare<[string, number, number], Row>(`
    SELECT d.delivery_id, d.event_id, e.type AS event_type, d.quote_id, d.subscription_id, s.url, d.state, d.attempts,
           d.created_at, d.last_attempt_at, d.last_error, d.next_attempt_at
    FROM webhook_deliveries d
    JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
    JOIN quote_events e ON e.event_id = d.event_id
    WHERE d.partner_id = ? AND (? = 0 OR d.state = 'dead_lettered')
    ORDER BY d.created_at DESC, d.event_position DESC
    LIMIT ?`)
  const replay = database.prepare<[number, string, string]>(`
    UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ?, first_attempt_at = NULL
    WHERE delivery_id = ? AND partner_id = ? AND state = 'dead_lettered'`)

  const selectBacklog = database.prepare<
    [],
    { pending: number; oldest_pending: number | null; oldest_new: number | null }
  >(`
    SELECT (SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending') AS pending,
           (SELECT occurred_at FROM quote_events
            WHERE position = (SELECT MIN(event_position) FROM webhook_deliveries WHERE state = 'pending')) AS oldest_pending,
           (SELECT MIN(occurred_at) FROM quote_events WHERE fanned_out_at IS NULL) AS oldest_new`)

  const recordRow = (deliveryId: string, owner: string, outcome: EventOutbox.AttemptOutcome): boolean =>
    record.run({
      delivery_id: deliveryId,
      owner,
      at: outcome.at,
      state: outcome.delivered ? "delivered" : outcome.retryAt === undefined ? "dead_lettered" : "pending",
      error: outcome.delivered ? null : outcome.error,
      next: outcome.delivered ? null : (outcome.retryAt ?? null)
    }).changes === 1
  // a round's outcomes in one transaction: one commit (one fsync) for the round, not one per delivery
  const recordAll = database.transaction(
    (
      owner: string,
      attempts: ReadonlyArray<{ readonly deliveryId: string; readonly outcome: EventOutbox.AttemptOutcome }>
    ) => attempts.filter(({ deliveryId, outcome }) => recordRow(deliveryId, owner, outcome)).length
  )

  /** Fans out new events, partner by partner, oldest first, each partner's share and the claim's bounded. */
  const fanOut = (now: number) => {
    let made = 0
    const partners = partnersWithNewEvents.all()
    const share = DeliveryAllowance.fanOutShare(partners.length)
    for (const { partner_id } of partners) {
      if (made >= FAN_OUT_PER_CLAIM) return
      for (const event of selectNewOfPartner.all({ partner_id, rows: share })) {
        made += insertDeliveries.run({ now, position: event.position, type: event.type }).changes
        markFannedOut.run(now, event.position)
      }
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
          ...ofSlow.filter((row) => row["partner_id"] === partner_id)
        ] as Array<DueRow>)
      }))
    )
    for (const row of chosen) lease.run(owner, now + leaseMillis, String(row["delivery_id"]))
    return chosen.map(claimedDeliveryOfRow)
  })

  return {
    eventsOfQuote: (quoteId) => attempt("read quote events", () => selectOfQuote.all(quoteId).map(eventOfRow)),
    claimDeliveries: (request) => attempt("claim webhook deliveries", () => claim.immediate(request)),
    recordAttempt: (deliveryId, owner, outcome) =>
      attempt("record a webhook delivery", () => recordRow(deliveryId, owner, outcome)),
    recordAttempts: (owner, attempts) =>
      attempt("record webhook deliveries", () => recordAll.immediate(owner, attempts)),
    backlog: attempt("read the webhook backlog", () => {
      const row = selectBacklog.get()!
      return StoredRows.backlogOf(row.pending, row.oldest_pending, row.oldest_new)
    }),
    deliveriesOf: (partnerId, { limit, deadLetteredOnly }) =>
      attempt("list webhook deliveries", () =>
        selectOfPartner.all(partnerId, deadLetteredOnly ? 1 : 0, limit).map(deliveryRecordOfRow)
      ),
    replay: (partnerId, deliveryId, now) =>
      attempt("replay a webhook delivery", () => replay.run(now, deliveryId, partnerId).changes === 1)
  }
}
