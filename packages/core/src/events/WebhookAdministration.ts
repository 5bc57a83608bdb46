/**
 * Managing a partner's webhook subscriptions, for the HTTP API (scope
 * `webhooks:manage`) and the operator's command line alike: create (the
 * secret is answered then, and only then), list (without secrets), remove,
 * rotate the secret; and its deliveries: list them, put dead-lettered ones
 * back in line, one or all since a time. Every answer is the partner's own.
 * @module
 */
import { Clock, Effect } from "effect"
import {
  type ConstraintViolation,
  constraintViolationOf,
  DeliveryNotFound,
  DeliveryNotReplayable,
  type StorageUnavailable,
  SubscriptionLimitReached,
  SubscriptionNotFound,
  type Violation
} from "../Errors.js"
import { millisOfDateTime } from "../input/CalendarDate.js"
import { type DeliveryRecord, EventOutbox } from "../ports/EventOutbox.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { WebhookSubscriptions } from "../ports/WebhookSubscriptions.js"
import type { QuoteEventType } from "./QuoteEvents.js"
import {
  DEFAULT_SUBSCRIPTIONS_PER_PARTNER,
  type EndpointPolicy,
  endpointRefusal,
  eventTypesRefusal,
  type WebhookSubscription
} from "./WebhookEndpoints.js"

/** A subscription as listed: everything but the secret. */
export type ListedSubscription = Omit<WebhookSubscription, "secret">

const listed = ({ secret: _secret, ...rest }: WebhookSubscription): ListedSubscription => rest

const REQUEST_MEMBERS = new Set(["url", "event_types"])

/** `{ url, event_types }`, every violation at once. */
const decodeSubscriptionRequest = (
  input: unknown,
  policy: EndpointPolicy
): { url: string; event_types: ReadonlyArray<QuoteEventType> } | ConstraintViolation => {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return constraintViolationOf([{ field: "body", message: "must be a JSON object" }])!
  const body = input as Record<string, unknown>
  const violations: Array<Violation> = Object.keys(body)
    .filter((member) => !REQUEST_MEMBERS.has(member))
    .map((member) => ({ field: member, message: "is not a member of a webhook subscription" }))
  const url = body["url"]
  if (typeof url !== "string") violations.push({ field: "url", message: "is required: the endpoint's URL" })
  else {
    const refusal = endpointRefusal(url, policy)
    if (refusal !== undefined) violations.push({ field: "url", message: refusal })
  }
  const typesRefusal = eventTypesRefusal(body["event_types"])
  if (typesRefusal !== undefined) violations.push({ field: "event_types", message: typesRefusal })
  return (
    constraintViolationOf(violations) ?? {
      url: url as string,
      event_types: body["event_types"] as ReadonlyArray<QuoteEventType>
    }
  )
}

/**
 * Creates a subscription for the partner, unless it has as many as the policy allows; its answer is the
 * one place the secret is ever shown.
 */
export const createSubscription = (
  partnerId: string,
  input: unknown,
  policy: EndpointPolicy
): Effect.Effect<
  WebhookSubscription,
  ConstraintViolation | SubscriptionLimitReached | StorageUnavailable,
  WebhookSubscriptions | IdGenerator
> =>
  Effect.gen(function* () {
    const request = decodeSubscriptionRequest(input, policy)
    if ("_tag" in request) return yield* Effect.fail(request)
    const ids = yield* IdGenerator
    const subscription: WebhookSubscription = {
      subscription_id: yield* ids.subscriptionId,
      partner_id: partnerId,
      url: request.url,
      event_types: request.event_types,
      secret: yield* ids.signingSecret,
      created_at: yield* Clock.currentTimeMillis
    }
    const limit = policy.maxSubscriptionsPerPartner ?? DEFAULT_SUBSCRIPTIONS_PER_PARTNER
    if (!(yield* (yield* WebhookSubscriptions).insert(subscription, limit)))
      return yield* new SubscriptionLimitReached({ limit })
    return subscription
  })

/** The partner's subscriptions, oldest first, without their secrets. */
export const listSubscriptions = (
  partnerId: string
): Effect.Effect<ReadonlyArray<ListedSubscription>, StorageUnavailable, WebhookSubscriptions> =>
  Effect.flatMap(WebhookSubscriptions, (store) =>
    Effect.map(store.subscriptionsOf(partnerId), (subscriptions) => subscriptions.map(listed))
  )

/** Removes the partner's subscription and its pending deliveries. */
export const removeSubscription = (
  partnerId: string,
  subscriptionId: string
): Effect.Effect<void, SubscriptionNotFound | StorageUnavailable, WebhookSubscriptions> =>
  Effect.flatMap(WebhookSubscriptions, (store) =>
    Effect.flatMap(store.remove(partnerId, subscriptionId), (removed) =>
      removed ? Effect.void : Effect.fail(new SubscriptionNotFound({ subscription_id: subscriptionId }))
    )
  )

/** Delivers to the partner's disabled subscription again, from the next event on; its dead letters wait for a replay. */
export const enableSubscription = (
  partnerId: string,
  subscriptionId: string
): Effect.Effect<ListedSubscription, SubscriptionNotFound | StorageUnavailable, WebhookSubscriptions> =>
  Effect.flatMap(WebhookSubscriptions, (store) =>
    Effect.flatMap(store.enable(partnerId, subscriptionId), (enabled) =>
      enabled._tag === "None"
        ? Effect.fail(new SubscriptionNotFound({ subscription_id: subscriptionId }))
        : Effect.succeed(listed(enabled.value))
    )
  )

/** Gives the partner's subscription a new secret, answered once; deliveries from now on are signed with it. */
export const rotateSecret = (
  partnerId: string,
  subscriptionId: string
): Effect.Effect<WebhookSubscription, SubscriptionNotFound | StorageUnavailable, WebhookSubscriptions | IdGenerator> =>
  Effect.gen(function* () {
    const secret = yield* (yield* IdGenerator).signingSecret
    const rotated = yield* (yield* WebhookSubscriptions).rotateSecret(partnerId, subscriptionId, secret)
    if (rotated._tag === "None")
      return yield* Effect.fail(new SubscriptionNotFound({ subscription_id: subscriptionId }))
    return rotated.value
  })

/** Deliveries one listing answers, newest first, and dead letters one recovery puts back in line at most. */
export const DELIVERIES_AT_ONCE = 100
/** The most dead-lettered deliveries one recovery (`replayDeadLetters`) puts back in line. */
export const REPLAYS_AT_ONCE = 1_000

/** The partner's newest deliveries (DELIVERIES_AT_ONCE at most), each with its state and last attempt. */
export const listDeliveries = (
  partnerId: string
): Effect.Effect<ReadonlyArray<DeliveryRecord>, StorageUnavailable, EventOutbox> =>
  Effect.flatMap(EventOutbox, (outbox) =>
    outbox.deliveriesOf(partnerId, { limit: DELIVERIES_AT_ONCE, deadLetteredOnly: false })
  )

/**
 * Puts the partner's dead-lettered delivery back in line, due now: DeliveryNotFound when it has none by that id,
 * DeliveryNotReplayable with its state when it has one that is not a dead letter (or is a disabled subscription's).
 */
export const replayDelivery = (
  partnerId: string,
  deliveryId: string
): Effect.Effect<void, DeliveryNotFound | DeliveryNotReplayable | StorageUnavailable, EventOutbox> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const outcome = yield* (yield* EventOutbox).replay(partnerId, deliveryId, now)
    if (outcome._tag === "NotFound") return yield* new DeliveryNotFound({ delivery_id: deliveryId })
    if (outcome._tag === "NotReplayable")
      return yield* new DeliveryNotReplayable({
        delivery_id: deliveryId,
        state: outcome.state,
        subscription_id: outcome.subscription_id
      })
  })

/** `{ since }`: an ISO 8601 date-time, every violation at once. */
const decodeRecovery = (input: unknown): number | ConstraintViolation => {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return constraintViolationOf([{ field: "body", message: "must be a JSON object" }])!
  const body = input as Record<string, unknown>
  const violations: Array<Violation> = Object.keys(body)
    .filter((member) => member !== "since")
    .map((member) => ({ field: member, message: "is not a member of a recovery request" }))
  const since = body["since"]
  const millis = typeof since === "string" ? millisOfDateTime(since) : undefined
  if (millis === undefined) {
    violations.push({
      field: "since",
      message: "is required: an ISO 8601 date-time naming a real instant, e.g. 2026-03-02T09:00:00Z"
    })
    return constraintViolationOf(violations)!
  }
  return constraintViolationOf(violations) ?? millis
}

/**
 * Puts back in line the partner's dead-lettered deliveries made since `since` (as Svix's recover does), oldest
 * first, REPLAYS_AT_ONCE at most in one write; answers how many, and whether more since then remain for another call.
 */
export const recoverDeadLetters = (
  partnerId: string,
  input: unknown
): Effect.Effect<
  { readonly replayed: number; readonly more: boolean },
  ConstraintViolation | StorageUnavailable,
  EventOutbox
> =>
  Effect.gen(function* () {
    const since = decodeRecovery(input)
    if (typeof since !== "number") return yield* Effect.fail(since)
    const outbox = yield* EventOutbox
    return yield* outbox.replaySince(partnerId, since, yield* Clock.currentTimeMillis, REPLAYS_AT_ONCE)
  })
