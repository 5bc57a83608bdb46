/**
 * The event outbox port: the quote events a QuoteStore wrote in the same
 * transaction as the changes they report (a committed change always has its
 * event, a failed one never does), and their deliveries to the partners'
 * webhook endpoints. Each store adapter provides it over the same database
 * as its QuoteStore; the webhook dispatcher of every instance claims
 * deliveries from it under a lease, so two instances do not send one twice.
 * @module
 */
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "../Errors.js"
import type { QuoteEvent } from "../events/QuoteEvents.js"

/**
 * The EventOutbox port: the quote events written with each change, and their webhook deliveries — fan-out,
 * leases, outcomes, replay. Each store adapter provides it beside its QuoteStore, on the same database.
 */
export class EventOutbox extends Context.Service<
  EventOutbox,
  {
    /** A quote's events, in the order they were written. */
    readonly eventsOfQuote: (quoteId: string) => Effect.Effect<ReadonlyArray<QuoteEvent>, StorageUnavailable>
    /**
     * Makes the deliveries of events not yet fanned out (one per subscription of
     * the event's partner that wants its type, as subscribed now) — a bounded
     * number per partner and in all, oldest events first, so a partner with a
     * large backlog costs each claim little and holds back no other partner's —
     * then leases up to `limit` deliveries due at `now` to `owner` until
     * `now + leaseMillis`: pending ones whose next attempt has come, not leased by
     * another owner whose lease still runs, and each the oldest pending delivery
     * of its quote to its endpoint (per quote, events arrive in order). Which of
     * the due deliveries it takes is `DeliveryAllowance.choose`'s: each partner's
     * fair share first, fewest in flight first, then what is left.
     */
    readonly claimDeliveries: (
      claim: DeliveryClaim
    ) => Effect.Effect<ReadonlyArray<ClaimedDelivery>, StorageUnavailable>
    /** Records an attempt's outcome, if `owner` still holds the lease; answers whether it did. */
    readonly recordAttempt: (
      deliveryId: string,
      owner: string,
      outcome: AttemptOutcome
    ) => Effect.Effect<boolean, StorageUnavailable>
    /**
     * Records the outcomes of a round's attempts in one write; answers how many `owner` still held. Each
     * subscription's `failing_since` goes with them: cleared by a delivery, set by the first failure after one.
     */
    readonly recordAttempts: (
      owner: string,
      attempts: ReadonlyArray<{ readonly deliveryId: string; readonly outcome: AttemptOutcome }>
    ) => Effect.Effect<number, StorageUnavailable>
    /** The partner's deliveries, newest first, at most `limit`; only dead-lettered ones when asked. */
    readonly deliveriesOf: (
      partnerId: string,
      options: { readonly limit: number; readonly deadLetteredOnly: boolean }
    ) => Effect.Effect<ReadonlyArray<DeliveryRecord>, StorageUnavailable>
    /**
     * Puts a dead-lettered delivery of the partner back in line, due at `now`, its retry window restarted —
     * not a delivery of a disabled subscription, which waits until it is enabled. Answers what it found: the
     * delivery replayed, none of the partner's by that id, or the partner's delivery left as it was, with its state.
     */
    readonly replay: (
      partnerId: string,
      deliveryId: string,
      now: number
    ) => Effect.Effect<ReplayOutcome, StorageUnavailable>
    /**
     * Puts back in line, in one write, the partner's oldest `limit` dead-lettered deliveries made at or after
     * `since` (but a disabled subscription's), so that a quote's events go out in order again; answers how many,
     * and whether more remain.
     */
    readonly replaySince: (
      partnerId: string,
      since: number,
      now: number,
      limit: number
    ) => Effect.Effect<{ readonly replayed: number; readonly more: boolean }, StorageUnavailable>
    /**
     * Stops delivery to a subscription (`reason` shown to its partner): its pending deliveries are dead-lettered,
     * for replay once it is enabled again, and new events are not fanned out to it. Answers whether it was enabled.
     */
    readonly disableSubscription: (
      subscriptionId: string,
      reason: string,
      at: number,
      /** Only while it has been failing since this time or before (the stored value decides, not a stale read). */
      failingSinceAtOrBefore?: number
    ) => Effect.Effect<boolean, StorageUnavailable>
    /** What waits to be delivered, for monitoring: events not yet fanned out, and pending deliveries. */
    readonly backlog: Effect.Effect<OutboxBacklog, StorageUnavailable>
  }
>()("@kasko/core/EventOutbox") {}

/** What the outbox still has to deliver. */
export interface OutboxBacklog {
  /** Deliveries pending (due now or waiting for a retry). */
  readonly pending_deliveries: number
  /** When the oldest event not yet delivered (not fanned out, or with a pending delivery) occurred; none when all are. */
  readonly oldest_undelivered_at: number | undefined
}

/** What a dispatcher asks of `claimDeliveries`: at an instant, for an owner and a lease, how many deliveries at most. */
export interface DeliveryClaim {
  readonly now: number
  readonly owner: string
  readonly leaseMillis: number
  /** Deliveries to lease at most, in all. */
  readonly limit: number
  /** A partner's deliveries the owner may hold at once, those in flight included (`limit` when absent). */
  readonly perPartnerLimit?: number
  /** An endpoint's deliveries the owner may hold at once, those in flight included (`limit` when absent). */
  readonly perSubscriptionLimit?: number
  /** What the owner has leased and not recorded yet, by partner and by subscription (none when absent). */
  readonly inFlight?: DeliveriesInFlight
  /**
   * Endpoints seen to answer slowly or not at all: held to `perSubscriptionLimit`, and their due deliveries
   * read apart from their partner's others, which a backlog to an endpoint that hangs would otherwise hide.
   */
  readonly slowSubscriptions?: ReadonlySet<string>
  /**
   * Endpoints seen to answer in time: only they may take more than `perSubscriptionLimit` when slots are free
   * (every endpoint may, when absent). An endpoint not seen yet keeps to its share until it has answered.
   */
  readonly fastSubscriptions?: ReadonlySet<string>
  /** Of `limit`, how many only fair shares may take: kept free for partners that turn up with none in flight. */
  readonly reserved?: number
}

/** Deliveries leased and not yet recorded, counted by partner and by subscription. */
export interface DeliveriesInFlight {
  readonly partners: ReadonlyMap<string, number>
  readonly subscriptions: ReadonlyMap<string, number>
}

/** A delivery leased to a dispatcher: what to send, where, signed with what. */
export interface ClaimedDelivery {
  readonly delivery_id: string
  readonly subscription_id: string
  readonly event: QuoteEvent
  readonly url: string
  readonly secret: string
  /** Attempts made before this one. */
  readonly attempts: number
  /** Epoch ms of the first attempt, or undefined before it; the retry window counts from it. */
  readonly first_attempt_at: number | undefined
  /** Since when every attempt at its subscription's endpoint has failed (epoch ms); undefined after a delivery. */
  readonly failing_since: number | undefined
}

/** Where a delivery is: `pending` (due or waiting to retry), `delivered`, or `dead_lettered` (failed for good). */
export type DeliveryState = "pending" | "delivered" | "dead_lettered"

/**
 * What a replay found: the delivery, put back in line; no delivery of the partner's by that id (unknown, or
 * another partner's); or the partner's delivery, left as it was — `pending` or `delivered`, or `dead_lettered`
 * for a subscription that is disabled (its dead letters wait until it is enabled).
 */
export type ReplayOutcome =
  | { readonly _tag: "Replayed" }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "NotReplayable"; readonly state: DeliveryState; readonly subscription_id: string }

/** What an attempt came to: delivered, or failed and then retried at an instant or dead-lettered. */
export type AttemptOutcome =
  | { readonly delivered: true; readonly at: number; readonly status: number }
  | {
      readonly delivered: false
      readonly at: number
      readonly error: string
      /** When to try again; undefined to dead-letter it. */
      readonly retryAt: number | undefined
      /** The endpoint's answer's status, when it answered. */
      readonly status?: number
    }

/** Attempts a delivery's log keeps, the latest: replayed again and again, a delivery's row stays bounded. */
export const ATTEMPT_LOG_LENGTH = 20

/** One attempt at a delivery, as its log keeps it: when, the answer's status if any, why it failed if it did. */
export interface AttemptRecord {
  readonly at: number
  readonly status: number | undefined
  readonly error: string | undefined
}

/** A delivery as the partner's and the operator's listings show it. */
export interface DeliveryRecord {
  readonly delivery_id: string
  readonly event_id: string
  readonly event_type: QuoteEvent["type"]
  readonly quote_id: string
  readonly subscription_id: string
  readonly url: string
  readonly state: DeliveryState
  readonly attempts: number
  readonly created_at: number
  readonly last_attempt_at: number | undefined
  readonly last_error: string | undefined
  readonly next_attempt_at: number | undefined
  /** The latest ATTEMPT_LOG_LENGTH attempts, oldest first. */
  readonly attempt_log: ReadonlyArray<AttemptRecord>
}
