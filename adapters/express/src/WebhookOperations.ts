/**
 * A partner's webhooks over HTTP (scope `webhooks:manage`): its subscriptions
 * — create (the signing secret is answered then, and only then), list,
 * delete, rotate the secret — and its deliveries: list them with their last
 * attempt, replay a dead-lettered one, recover every dead letter since a time.
 * Where an endpoint may point is the operator's policy (`WebhookPolicy`),
 * provided by the composition root.
 */
import {
  DeliveryNotReplayable,
  type EventOutbox,
  type IdGenerator,
  QuoteEvents,
  SubscriptionLimitReached,
  type WebhookSubscriptions
} from "@kasko/core"
import { WebhookAdministration } from "@kasko/core/administration"
import { WebhookEndpoints } from "@kasko/core/transport"
import { Context, Effect, Schema } from "effect"
import { problemOfCoreError } from "./CoreErrorProblems.js"
import { EmptyAnswer, replyWith, type OperationOf, type PathParameter } from "./Operation.js"

/** Where webhook endpoints may point: https and public addresses, unless the operator allows more. */
export class WebhookPolicy extends Context.Service<WebhookPolicy, WebhookEndpoints.EndpointPolicy>()(
  "@kasko/express/WebhookPolicy"
) {}

export type WebhookServices =
  | WebhookSubscriptions.WebhookSubscriptions
  | EventOutbox.EventOutbox
  | IdGenerator.IdGenerator
  | WebhookPolicy

const EventType = Schema.Literals(QuoteEvents.QUOTE_EVENT_TYPES)

export const WebhookSubscriptionRequest = Schema.Struct({
  url: Schema.String.annotate({ description: "The endpoint: an https URL on a public address" }),
  event_types: Schema.NonEmptyArray(EventType).annotate({ description: "The quote events to send it" })
}).annotate({ identifier: "WebhookSubscriptionRequest" })

const IsoDateTime = Schema.String.annotate({ description: "ISO 8601, UTC" })

const subscriptionFields = {
  subscription_id: Schema.String,
  url: Schema.String,
  event_types: Schema.Array(EventType),
  created_at: IsoDateTime,
  state: Schema.Literals(["enabled", "disabled"]).annotate({
    description:
      "disabled: its endpoint answered 410 Gone or failed every attempt for 5 days; no event is sent to it until it is enabled again (POST …/enable), and its undelivered ones were dead-lettered, for POST /webhooks/deliveries/recover"
  }),
  disabled_at: Schema.optionalKey(IsoDateTime),
  disabled_reason: Schema.optionalKey(Schema.String)
}

export const WebhookSubscription = Schema.Struct(subscriptionFields).annotate({ identifier: "WebhookSubscription" })

export const WebhookSubscriptionWithSecret = Schema.Struct({
  ...subscriptionFields,
  secret: Schema.String.annotate({
    description: "The Standard Webhooks signing secret (whsec_…): answered only now, keep it"
  })
}).annotate({ identifier: "WebhookSubscriptionWithSecret" })

export const WebhookSubscriptionList = Schema.Struct({ subscriptions: Schema.Array(WebhookSubscription) }).annotate({
  identifier: "WebhookSubscriptionList"
})

export const WebhookDelivery = Schema.Struct({
  delivery_id: Schema.String,
  event_id: Schema.String.annotate({ description: "The event's id: the webhook-id header its attempts carry" }),
  event_type: EventType,
  quote_id: Schema.String,
  subscription_id: Schema.String,
  url: Schema.String,
  state: Schema.Literals(["pending", "delivered", "dead_lettered"]).annotate({
    description:
      "pending: to be tried (again) at next_attempt_at; delivered: an attempt had a 2xx answer; dead_lettered: every attempt failed — replay it once the endpoint is fixed"
  }),
  attempts: Schema.Number.annotate({ description: "Attempts made so far" }),
  created_at: IsoDateTime,
  last_attempt_at: Schema.optionalKey(IsoDateTime),
  last_error: Schema.optionalKey(
    Schema.String.annotate({
      description: "Why the last attempt failed: the answer's status, or the connection's error"
    })
  ),
  next_attempt_at: Schema.optionalKey(IsoDateTime),
  attempt_log: Schema.Array(
    Schema.Struct({
      at: IsoDateTime,
      status_code: Schema.optionalKey(Schema.Number.annotate({ description: "The endpoint's answer's status" })),
      error: Schema.optionalKey(
        Schema.String.annotate({ description: "Why it failed: the status, the connection's error or the timeout" })
      )
    }).annotate({ identifier: "WebhookAttempt" })
  ).annotate({ description: "Every attempt made, oldest first" })
}).annotate({ identifier: "WebhookDelivery" })

export const WebhookDeliveryList = Schema.Struct({ deliveries: Schema.Array(WebhookDelivery) }).annotate({
  identifier: "WebhookDeliveryList"
})

export const RecoveryRequest = Schema.Struct({
  since: IsoDateTime.annotate({ description: "Dead letters made since this time are put back in line" })
}).annotate({ identifier: "WebhookRecoveryRequest" })

export const RecoveryAnswer = Schema.Struct({
  replayed: Schema.Number.annotate({ description: "Dead-lettered deliveries put back in line, due now" }),
  more: Schema.Boolean.annotate({ description: "Whether more remain since then: call again to replay them" })
}).annotate({ identifier: "WebhookRecoveryAnswer" })

const listedDelivery = (delivery: EventOutbox.DeliveryRecord) => ({
  delivery_id: delivery.delivery_id,
  event_id: delivery.event_id,
  event_type: delivery.event_type,
  quote_id: delivery.quote_id,
  subscription_id: delivery.subscription_id,
  url: delivery.url,
  state: delivery.state,
  attempts: delivery.attempts,
  created_at: new Date(delivery.created_at).toISOString(),
  ...(delivery.last_attempt_at === undefined
    ? {}
    : { last_attempt_at: new Date(delivery.last_attempt_at).toISOString() }),
  ...(delivery.last_error === undefined ? {} : { last_error: delivery.last_error }),
  ...(delivery.next_attempt_at === undefined
    ? {}
    : { next_attempt_at: new Date(delivery.next_attempt_at).toISOString() }),
  attempt_log: delivery.attempt_log.map((attempt) => ({
    at: new Date(attempt.at).toISOString(),
    ...(attempt.status === undefined ? {} : { status_code: attempt.status }),
    ...(attempt.error === undefined ? {} : { error: attempt.error })
  }))
})

const listed = (subscription: WebhookAdministration.ListedSubscription) => ({
  subscription_id: subscription.subscription_id,
  url: subscription.url,
  event_types: subscription.event_types,
  created_at: new Date(subscription.created_at).toISOString(),
  ...(subscription.disabled === undefined
    ? { state: "enabled" as const }
    : {
        state: "disabled" as const,
        disabled_at: new Date(subscription.disabled.at).toISOString(),
        disabled_reason: subscription.disabled.reason
      })
})

const withSecret = (subscription: WebhookEndpoints.WebhookSubscription) => ({
  ...listed(subscription),
  secret: subscription.secret
})

const answerWithSecret = replyWith(WebhookSubscriptionWithSecret)
const answerSubscription = replyWith(WebhookSubscription)
const answerSubscriptionList = replyWith(WebhookSubscriptionList)
const answerDeliveryList = replyWith(WebhookDeliveryList)
const answerRecovery = replyWith(RecoveryAnswer)
const answerEmpty = replyWith(EmptyAnswer)

const EXAMPLE_REQUEST = {
  url: "https://hooks.partner.example/kasko",
  event_types: ["quote.created", "quote.activated"]
}
const EXAMPLE_SUBSCRIPTION = {
  subscription_id: "whk_01939a4e-7c00-7000-8000-000000000001",
  url: EXAMPLE_REQUEST.url,
  event_types: EXAMPLE_REQUEST.event_types,
  created_at: "2026-03-02T09:00:00.000Z",
  state: "enabled"
}
const EXAMPLE_SECRET = "whsec_a2Fza28tZXhhbXBsZS1zaWduaW5nLXNlY3JldC0zMmI="

const EXAMPLE_DELIVERY = {
  delivery_id: "dlv_whk_01939a4e-7c00-7000-8000-000000000001_evt_01939a4e-7c00-7000-8000-0000000000a1_created",
  event_id: "evt_01939a4e-7c00-7000-8000-0000000000a1_created",
  event_type: "quote.created",
  quote_id: "01939a4e-7c00-7000-8000-0000000000a1",
  subscription_id: EXAMPLE_SUBSCRIPTION.subscription_id,
  url: EXAMPLE_REQUEST.url,
  state: "pending",
  attempts: 2,
  created_at: "2026-03-02T09:00:00.000Z",
  last_attempt_at: "2026-03-02T09:00:05.000Z",
  last_error: "answered 503",
  next_attempt_at: "2026-03-02T09:01:05.000Z",
  attempt_log: [
    { at: "2026-03-02T09:00:00.000Z", error: "connect ECONNREFUSED 203.0.113.7:443" },
    { at: "2026-03-02T09:00:05.000Z", status_code: 503, error: "answered 503" }
  ]
}

const deliveryIdParameter: PathParameter = {
  name: "delivery_id",
  description: "The delivery's id, as listed by GET /webhooks/deliveries",
  schema: { type: "string", pattern: "^dlv_" },
  example: EXAMPLE_DELIVERY.delivery_id
}

const subscriptionIdParameter: PathParameter = {
  name: "subscription_id",
  description: "The subscription's id, as answered when it was created",
  schema: { type: "string", pattern: "^whk_" },
  example: EXAMPLE_SUBSCRIPTION.subscription_id
}

// the documented 409s are the answers themselves, made by the table that answers them
const SUBSCRIPTION_LIMIT_EXAMPLE = problemOfCoreError(
  new SubscriptionLimitReached({ limit: WebhookEndpoints.DEFAULT_SUBSCRIPTIONS_PER_PARTNER })
).problem
const NOT_REPLAYABLE_EXAMPLE = problemOfCoreError(
  new DeliveryNotReplayable({
    delivery_id: EXAMPLE_DELIVERY.delivery_id,
    state: "pending",
    subscription_id: EXAMPLE_DELIVERY.subscription_id
  })
).problem

const COMMON = {
  tag: "webhooks",
  scope: "webhooks:manage" as const,
  noStore: true as const
}

export const WEBHOOK_OPERATIONS: ReadonlyArray<OperationOf<WebhookServices>> = [
  {
    ...COMMON,
    operationId: "createWebhookSubscription",
    method: "post",
    path: "/webhooks/subscriptions",
    summary: "Subscribe an endpoint to quote events",
    description:
      "Quote events (quote.created, quote.activated, quote.expired; see /asyncapi.json) are POSTed to the endpoint, signed per Standard Webhooks with the secret answered here — and only here.",
    requestBody: WebhookSubscriptionRequest,
    requestExample: EXAMPLE_REQUEST,
    responses: [WebhookSubscriptionWithSecret],
    responseDescription: "The subscription and its signing secret",
    responseExamples: [
      {
        name: "subscription",
        summary: "A new subscription",
        value: { ...EXAMPLE_SUBSCRIPTION, secret: EXAMPLE_SECRET }
      }
    ],
    errorStatuses: [400, 409, 413, 415, 503],
    errorAnswers: {
      409: {
        description:
          "Conflict: the partner has as many webhook subscriptions as one partner may have; delete one first",
        example: SUBSCRIPTION_LIMIT_EXAMPLE
      }
    },
    handle: ({ body, partnerId }) =>
      Effect.flatMap(WebhookPolicy, (policy) =>
        Effect.map(WebhookAdministration.createSubscription(partnerId, body, policy), (created) =>
          answerWithSecret(withSecret(created))
        )
      )
  },
  {
    ...COMMON,
    operationId: "listWebhookSubscriptions",
    method: "get",
    path: "/webhooks/subscriptions",
    summary: "List the partner's webhook subscriptions",
    description: "Every subscription of the calling partner, oldest first, without secrets.",
    responses: [WebhookSubscriptionList],
    responseDescription: "The subscriptions",
    responseExamples: [{ name: "one", summary: "One subscription", value: { subscriptions: [EXAMPLE_SUBSCRIPTION] } }],
    errorStatuses: [503],
    handle: ({ partnerId }) =>
      Effect.map(WebhookAdministration.listSubscriptions(partnerId), (subscriptions) =>
        answerSubscriptionList({
          subscriptions: subscriptions.map(listed)
        })
      )
  },
  {
    ...COMMON,
    operationId: "deleteWebhookSubscription",
    method: "delete",
    path: "/webhooks/subscriptions/{subscription_id}",
    summary: "Delete a webhook subscription",
    description: "Removes the subscription; deliveries not yet made to it are dropped. 404 for another partner's.",
    pathParameters: [subscriptionIdParameter],
    responses: [EmptyAnswer],
    responseDescription: "An empty JSON object",
    responseExamples: [{ name: "deleted", summary: "Deleted", value: {} }],
    errorStatuses: [404, 503],
    handle: ({ params, partnerId }) =>
      Effect.as(WebhookAdministration.removeSubscription(partnerId, params["subscription_id"] ?? ""), answerEmpty({}))
  },
  {
    ...COMMON,
    operationId: "rotateWebhookSecret",
    method: "post",
    path: "/webhooks/subscriptions/{subscription_id}/secret",
    summary: "Rotate a subscription's signing secret",
    description: "Replaces the signing secret; deliveries from now on are signed with the new one, answered here only.",
    pathParameters: [subscriptionIdParameter],
    responses: [WebhookSubscriptionWithSecret],
    responseDescription: "The subscription and its new signing secret",
    responseExamples: [
      { name: "rotated", summary: "A new secret", value: { ...EXAMPLE_SUBSCRIPTION, secret: EXAMPLE_SECRET } }
    ],
    errorStatuses: [404, 503],
    handle: ({ params, partnerId }) =>
      Effect.map(WebhookAdministration.rotateSecret(partnerId, params["subscription_id"] ?? ""), (rotated) =>
        answerWithSecret(withSecret(rotated))
      )
  },
  {
    ...COMMON,
    operationId: "enableWebhookSubscription",
    method: "post",
    path: "/webhooks/subscriptions/{subscription_id}/enable",
    summary: "Enable a disabled webhook subscription",
    description:
      "Events from now on are sent to it again; those dead-lettered while it was disabled wait for POST /webhooks/deliveries/recover. Enabling an enabled subscription changes nothing. 404 for another partner's.",
    pathParameters: [subscriptionIdParameter],
    responses: [WebhookSubscription],
    responseDescription: "The subscription, enabled",
    responseExamples: [{ name: "enabled", summary: "Enabled again", value: EXAMPLE_SUBSCRIPTION }],
    errorStatuses: [404, 503],
    handle: ({ params, partnerId }) =>
      Effect.map(WebhookAdministration.enableSubscription(partnerId, params["subscription_id"] ?? ""), (enabled) =>
        answerSubscription(listed(enabled))
      )
  },
  {
    ...COMMON,
    operationId: "listWebhookDeliveries",
    method: "get",
    path: "/webhooks/deliveries",
    summary: "List the partner's webhook deliveries",
    description: `The calling partner's newest deliveries (${WebhookAdministration.DELIVERIES_AT_ONCE} at most), one per event and endpoint, each with its state, the attempts made, the last one's error and when the next is due.`,
    responses: [WebhookDeliveryList],
    responseDescription: "The deliveries, newest first",
    responseExamples: [
      { name: "retrying", summary: "A delivery being retried", value: { deliveries: [EXAMPLE_DELIVERY] } }
    ],
    errorStatuses: [503],
    handle: ({ partnerId }) =>
      Effect.map(WebhookAdministration.listDeliveries(partnerId), (deliveries) =>
        answerDeliveryList({ deliveries: deliveries.map(listedDelivery) })
      )
  },
  {
    ...COMMON,
    operationId: "replayWebhookDelivery",
    method: "post",
    path: "/webhooks/deliveries/{delivery_id}/replay",
    summary: "Replay a dead-lettered delivery",
    description:
      "Puts the dead-lettered delivery back in line, due now, its retry window restarted. 404 for a delivery that is not the partner's; 409 for one that is not dead-lettered, or whose subscription is disabled (enable it first).",
    pathParameters: [deliveryIdParameter],
    responses: [EmptyAnswer],
    responseDescription: "An empty JSON object",
    responseExamples: [{ name: "replayed", summary: "Due again", value: {} }],
    errorStatuses: [404, 409, 503],
    errorAnswers: {
      409: {
        description:
          "Conflict: the delivery is not dead-lettered (`detail` names its state: pending or delivered), or it is but its subscription is disabled: enable the subscription, then replay",
        example: NOT_REPLAYABLE_EXAMPLE
      }
    },
    handle: ({ params, partnerId }) =>
      Effect.as(WebhookAdministration.replayDelivery(partnerId, params["delivery_id"] ?? ""), answerEmpty({}))
  },
  {
    ...COMMON,
    operationId: "recoverWebhookDeliveries",
    method: "post",
    path: "/webhooks/deliveries/recover",
    summary: "Replay every dead letter since a time",
    description: `Puts back in line the partner's dead-lettered deliveries made since \`since\`, newest first, ${WebhookAdministration.REPLAYS_AT_ONCE} at most per call (\`more\` says whether to call again): after an endpoint's outage, once it is fixed.`,
    requestBody: RecoveryRequest,
    requestExample: { since: "2026-03-01T00:00:00Z" },
    responses: [RecoveryAnswer],
    responseDescription: "How many were put back in line",
    responseExamples: [
      { name: "recovered", summary: "Three dead letters due again", value: { replayed: 3, more: false } }
    ],
    errorStatuses: [400, 413, 415, 503],
    handle: ({ body, partnerId }) =>
      Effect.map(WebhookAdministration.recoverDeadLetters(partnerId, body), answerRecovery)
  }
]
