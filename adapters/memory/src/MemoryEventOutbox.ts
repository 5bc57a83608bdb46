/**
 * The event outbox, webhook subscriptions and deliveries in memory, written
 * by the in-memory QuoteStore with each change. Deliveries follow the same
 * rules as the SQL stores': fanned out to the subscriptions of their time,
 * leased to one dispatcher at a time, in order per quote and endpoint.
 * @module
 */
import { EventOutbox, type QuoteEvents, type WebhookSubscriptions } from "@kasko/core"
import { DeliveryAllowance } from "@kasko/core/storage"
import type { WebhookEndpoints } from "@kasko/core/transport"
import { Effect, Option } from "effect"

type QuoteEvent = QuoteEvents.QuoteEvent
type Subscription = WebhookEndpoints.WebhookSubscription

interface Delivery {
  readonly delivery_id: string
  readonly position: number
  readonly event: QuoteEvent
  readonly subscription_id: string
  state: EventOutbox.DeliveryState
  attempts: number
  readonly created_at: number
  first_attempt_at: number | undefined
  last_attempt_at: number | undefined
  next_attempt_at: number | undefined
  last_error: string | undefined
  lease_owner: string | undefined
  lease_until: number | undefined
  readonly attempt_log: Array<EventOutbox.AttemptRecord>
}

/**
 * A fresh event log in memory: the EventOutbox and WebhookSubscriptions services over it, and the writes the
 * in-memory QuoteStore makes with each change. `MemoryQuoteStore.layer` builds one; a test that needs the log alone
 * makes its own.
 */
export const makeEventOutbox = () => {
  const events: Array<{ readonly position: number; readonly event: QuoteEvent; fannedOut: boolean }> = []
  const subscriptions = new Map<string, Subscription>()
  const deliveries = new Map<string, Delivery>()
  // since when every attempt at a subscription's endpoint has failed, by subscription
  const failingSince = new Map<string, number>()
  let lastPosition = 0

  /** Makes the deliveries of one event, to the subscriptions of its partner that want it; answers how many. */
  const fanOutEvent = (entry: (typeof events)[number], now: number): number => {
    entry.fannedOut = true
    let made = 0
    for (const subscription of subscriptions.values()) {
      if (subscription.partner_id !== entry.event.partner_id) continue
      if (!subscription.event_types.includes(entry.event.type) || subscription.disabled !== undefined) continue
      const delivery_id = `dlv_${subscription.subscription_id}_${entry.event.event_id}`
      deliveries.set(delivery_id, {
        delivery_id,
        position: entry.position,
        event: entry.event,
        subscription_id: subscription.subscription_id,
        state: "pending",
        attempts: 0,
        created_at: now,
        first_attempt_at: undefined,
        last_attempt_at: undefined,
        next_attempt_at: now,
        last_error: undefined,
        lease_owner: undefined,
        lease_until: undefined,
        attempt_log: []
      })
      made++
    }
    return made
  }

  /** Fans out new events as the SQL stores do: partner by partner, oldest first, each share and the claim bounded. */
  const fanOut = (now: number) => {
    const byPartner = new Map<string, Array<(typeof events)[number]>>()
    for (const entry of events) {
      if (entry.fannedOut) continue
      const ofPartner = byPartner.get(entry.event.partner_id) ?? []
      ofPartner.push(entry)
      byPartner.set(entry.event.partner_id, ofPartner)
    }
    let made = 0
    const share = DeliveryAllowance.fanOutShare(byPartner.size)
    for (const ofPartner of byPartner.values()) {
      if (made >= DeliveryAllowance.FAN_OUT_PER_CLAIM) return
      let madeOfPartner = 0
      for (const entry of ofPartner) {
        if (madeOfPartner >= share) break
        madeOfPartner += Math.max(1, fanOutEvent(entry, now))
      }
      made += madeOfPartner
    }
  }

  const blockedByEarlier = (delivery: Delivery) =>
    [...deliveries.values()].some(
      (other) =>
        other.state === "pending" &&
        other.subscription_id === delivery.subscription_id &&
        other.event.quote_id === delivery.event.quote_id &&
        other.position < delivery.position
    )

  const recordOf = (delivery: Delivery): EventOutbox.DeliveryRecord => ({
    delivery_id: delivery.delivery_id,
    event_id: delivery.event.event_id,
    event_type: delivery.event.type,
    quote_id: delivery.event.quote_id,
    subscription_id: delivery.subscription_id,
    url: subscriptions.get(delivery.subscription_id)?.url ?? "",
    state: delivery.state,
    attempts: delivery.attempts,
    created_at: delivery.created_at,
    last_attempt_at: delivery.last_attempt_at,
    last_error: delivery.last_error,
    next_attempt_at: delivery.state === "pending" ? delivery.next_attempt_at : undefined,
    attempt_log: [...delivery.attempt_log]
  })

  const record = (deliveryId: string, owner: string, outcome: EventOutbox.AttemptOutcome): boolean => {
    const delivery = deliveries.get(deliveryId)
    if (delivery === undefined || delivery.lease_owner !== owner || delivery.state !== "pending") return false
    delivery.attempts += 1
    delivery.attempt_log.push({
      at: outcome.at,
      status: outcome.status,
      error: outcome.delivered ? undefined : outcome.error
    })
    if (delivery.attempt_log.length > EventOutbox.ATTEMPT_LOG_LENGTH) delivery.attempt_log.shift()
    delivery.first_attempt_at ??= outcome.at
    delivery.last_attempt_at = outcome.at
    delivery.lease_owner = undefined
    delivery.lease_until = undefined
    if (outcome.delivered) failingSince.delete(delivery.subscription_id)
    else if (!failingSince.has(delivery.subscription_id)) failingSince.set(delivery.subscription_id, outcome.at)
    if (outcome.delivered) {
      delivery.state = "delivered"
      delivery.last_error = undefined
      delivery.next_attempt_at = undefined
    } else {
      delivery.last_error = outcome.error
      delivery.state = outcome.retryAt === undefined ? "dead_lettered" : "pending"
      delivery.next_attempt_at = outcome.retryAt
    }
    return true
  }

  /** A dead letter of the partner's made at or after `since`, its subscription enabled. */
  const replayable = (delivery: Delivery, partnerId: string, since: number) =>
    delivery.event.partner_id === partnerId &&
    delivery.state === "dead_lettered" &&
    delivery.created_at >= since &&
    subscriptions.get(delivery.subscription_id)?.disabled === undefined

  const putBackInLine = (delivery: Delivery, now: number) => {
    delivery.state = "pending"
    delivery.next_attempt_at = now
    delivery.first_attempt_at = undefined
  }

  const outbox: EventOutbox.EventOutbox["Service"] = {
    eventsOfQuote: (quoteId) =>
      Effect.sync(() => events.filter(({ event }) => event.quote_id === quoteId).map(({ event }) => event)),
    claimDeliveries: (request) =>
      Effect.sync(() => {
        const { now, owner, leaseMillis } = request
        fanOut(now)
        const due = [...deliveries.values()]
          .filter(
            (delivery) =>
              delivery.state === "pending" &&
              (delivery.next_attempt_at ?? now) <= now &&
              (delivery.lease_until === undefined || delivery.lease_until <= now) &&
              !blockedByEarlier(delivery)
          )
          .sort((a, b) => (a.next_attempt_at ?? 0) - (b.next_attempt_at ?? 0) || a.position - b.position)
        const byPartner = new Map<string, Array<Delivery>>()
        for (const delivery of due) {
          const ofPartner = byPartner.get(delivery.event.partner_id) ?? []
          ofPartner.push(delivery)
          byPartner.set(delivery.event.partner_id, ofPartner)
        }
        const taken = DeliveryAllowance.choose(
          request,
          [...byPartner].map(([partner_id, ofPartner]) => ({
            partner_id,
            oldest: ofPartner[0]!.next_attempt_at ?? now,
            candidates: ofPartner
          }))
        )
        return taken.map((delivery): EventOutbox.ClaimedDelivery => {
          delivery.lease_owner = owner
          delivery.lease_until = now + leaseMillis
          const subscription = subscriptions.get(delivery.subscription_id)!
          return {
            delivery_id: delivery.delivery_id,
            subscription_id: delivery.subscription_id,
            event: delivery.event,
            url: subscription.url,
            secret: subscription.secret,
            attempts: delivery.attempts,
            first_attempt_at: delivery.first_attempt_at,
            failing_since: failingSince.get(delivery.subscription_id)
          }
        })
      }),
    recordAttempt: (deliveryId, owner, outcome) => Effect.sync(() => record(deliveryId, owner, outcome)),
    recordAttempts: (owner, attempts) =>
      Effect.sync(() => attempts.filter(({ deliveryId, outcome }) => record(deliveryId, owner, outcome)).length),
    backlog: Effect.sync(() => {
      const pending = [...deliveries.values()].filter((delivery) => delivery.state === "pending")
      const undelivered = [
        ...events.filter((entry) => !entry.fannedOut).map((entry) => entry.event.occurred_at),
        ...pending.map((delivery) => delivery.event.occurred_at)
      ]
      return {
        pending_deliveries: pending.length,
        oldest_undelivered_at: undelivered.length === 0 ? undefined : Math.min(...undelivered)
      }
    }),
    deliveriesOf: (partnerId, { limit, deadLetteredOnly }) =>
      Effect.sync(() =>
        [...deliveries.values()]
          .filter(
            (delivery) =>
              delivery.event.partner_id === partnerId && (!deadLetteredOnly || delivery.state === "dead_lettered")
          )
          .sort((a, b) => b.created_at - a.created_at || b.position - a.position)
          .slice(0, limit)
          .map(recordOf)
      ),
    disableSubscription: (subscriptionId, reason, at, failingSinceAtOrBefore) =>
      Effect.sync(() => {
        const subscription = subscriptions.get(subscriptionId)
        if (subscription === undefined || subscription.disabled !== undefined) return false
        const failing = failingSince.get(subscriptionId)
        if (failingSinceAtOrBefore !== undefined && (failing === undefined || failing > failingSinceAtOrBefore))
          return false
        subscriptions.set(subscriptionId, { ...subscription, disabled: { at, reason } })
        for (const delivery of deliveries.values())
          if (delivery.subscription_id === subscriptionId && delivery.state === "pending") {
            delivery.state = "dead_lettered"
            delivery.last_error = `the subscription was disabled: ${reason}`
            delivery.next_attempt_at = undefined
          }
        return true
      }),
    replay: (partnerId, deliveryId, now) =>
      Effect.sync((): EventOutbox.ReplayOutcome => {
        const delivery = deliveries.get(deliveryId)
        if (delivery === undefined || delivery.event.partner_id !== partnerId) return { _tag: "NotFound" }
        if (!replayable(delivery, partnerId, Number.NEGATIVE_INFINITY))
          return { _tag: "NotReplayable", state: delivery.state, subscription_id: delivery.subscription_id }
        putBackInLine(delivery, now)
        return { _tag: "Replayed" }
      }),
    replaySince: (partnerId, since, now, limit) =>
      Effect.sync(() => {
        const deadLetters = [...deliveries.values()]
          .filter((delivery) => replayable(delivery, partnerId, since))
          .sort((a, b) => a.created_at - b.created_at || a.position - b.position)
        for (const delivery of deadLetters.slice(0, limit)) putBackInLine(delivery, now)
        return { replayed: Math.min(limit, deadLetters.length), more: deadLetters.length > limit }
      })
  }

  const subscriptionStore: WebhookSubscriptions.WebhookSubscriptions["Service"] = {
    insert: (subscription, limit) =>
      Effect.sync(() => {
        const ofPartner = [...subscriptions.values()].filter((each) => each.partner_id === subscription.partner_id)
        if (ofPartner.length >= limit) return false
        subscriptions.set(subscription.subscription_id, subscription)
        return true
      }),
    subscriptionsOf: (partnerId) =>
      Effect.sync(() =>
        [...subscriptions.values()]
          .filter((subscription) => subscription.partner_id === partnerId)
          .sort((a, b) => a.created_at - b.created_at)
      ),
    remove: (partnerId, subscriptionId) =>
      Effect.sync(() => {
        if (subscriptions.get(subscriptionId)?.partner_id !== partnerId) return false
        subscriptions.delete(subscriptionId)
        for (const [id, delivery] of deliveries) if (delivery.subscription_id === subscriptionId) deliveries.delete(id)
        return true
      }),
    enable: (partnerId, subscriptionId) =>
      Effect.sync(() => {
        const subscription = subscriptions.get(subscriptionId)
        if (subscription?.partner_id !== partnerId) return Option.none()
        const { disabled: _disabled, ...enabled } = subscription
        subscriptions.set(subscriptionId, enabled)
        failingSince.delete(subscriptionId)
        return Option.some(enabled)
      }),
    rotateSecret: (partnerId, subscriptionId, secret) =>
      Effect.sync(() => {
        const subscription = subscriptions.get(subscriptionId)
        if (subscription?.partner_id !== partnerId) return Option.none()
        const rotated = { ...subscription, secret }
        subscriptions.set(subscriptionId, rotated)
        return Option.some(rotated)
      })
  }

  return {
    append: (event: QuoteEvent) => {
      lastPosition += 1
      events.push({ position: lastPosition, event, fannedOut: false })
    },
    /** Forgets the events that occurred at or before `cutoff`, and their deliveries. */
    prune: (cutoff: number) => {
      const kept = events.filter(({ event }) => event.occurred_at > cutoff)
      events.splice(0, events.length, ...kept)
      for (const [id, delivery] of deliveries) if (delivery.event.occurred_at <= cutoff) deliveries.delete(id)
    },
    outbox,
    subscriptions: subscriptionStore
  }
}
