/**
 * Managing a partner's webhook subscriptions, for the HTTP API (scope
 * `webhooks:manage`) and the operator's command line alike: create (the
 * secret is answered then, and only then), list (without secrets), remove,
 * rotate the secret. Every answer is the partner's own.
 */
import { Clock, Effect } from "effect"
import {
  type ConstraintViolation,
  constraintViolationOf,
  type StorageUnavailable,
  SubscriptionLimitReached,
  SubscriptionNotFound,
  type Violation
} from "../Errors.js"
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
