/**
 * A partner's webhook subscriptions over HTTP (scope `webhooks:manage`):
 * create (the signing secret is answered then, and only then), list, delete,
 * rotate the secret. Where an endpoint may point is the operator's policy
 * (`WebhookPolicy`), provided by the composition root.
 */
import { type IdGenerator, QuoteEvents, type WebhookSubscriptions } from "@kasko/core"
import { WebhookAdministration } from "@kasko/core/administration"
import type { WebhookEndpoints } from "@kasko/core/transport"
import { Context, Effect, Schema } from "effect"
import { OPEN_API_SCHEMA, type OperationOf, type PathParameter } from "./Operation.js"

/** Where webhook endpoints may point: https and public addresses, unless the operator allows more. */
export class WebhookPolicy extends Context.Service<WebhookPolicy, WebhookEndpoints.EndpointPolicy>()(
  "@kasko/express/WebhookPolicy"
) {}

export type WebhookServices = WebhookSubscriptions.WebhookSubscriptions | IdGenerator.IdGenerator | WebhookPolicy

const EventType = Schema.Literals(QuoteEvents.QUOTE_EVENT_TYPES)

export const WebhookSubscriptionRequest = Schema.Struct({
  url: Schema.String.annotate({ description: "The endpoint: an https URL on a public address" }),
  event_types: Schema.NonEmptyArray(EventType).annotate({ description: "The quote events to send it" })
}).annotate({ identifier: "WebhookSubscriptionRequest" })

const subscriptionFields = {
  subscription_id: Schema.String,
  url: Schema.String,
  event_types: Schema.Array(EventType),
  created_at: Schema.String.annotate({ description: "ISO 8601, UTC" })
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

const DeletedAnswer = Schema.Struct({}).annotate({
  identifier: "DeletedAnswer",
  [OPEN_API_SCHEMA]: {
    type: "object",
    description: "An empty JSON object",
    properties: {},
    additionalProperties: false
  }
})

const listed = (subscription: WebhookAdministration.ListedSubscription) => ({
  subscription_id: subscription.subscription_id,
  url: subscription.url,
  event_types: subscription.event_types,
  created_at: new Date(subscription.created_at).toISOString()
})

const withSecret = (subscription: WebhookEndpoints.WebhookSubscription) => ({
  ...listed(subscription),
  secret: subscription.secret
})

const EXAMPLE_REQUEST = {
  url: "https://hooks.partner.example/kasko",
  event_types: ["quote.created", "quote.activated"]
}
const EXAMPLE_SUBSCRIPTION = {
  subscription_id: "whk_01939a4e-7c00-7000-8000-000000000001",
  url: EXAMPLE_REQUEST.url,
  event_types: EXAMPLE_REQUEST.event_types,
  created_at: "2026-03-02T09:00:00.000Z"
}
const EXAMPLE_SECRET = "whsec_a2Fza28tZXhhbXBsZS1zaWduaW5nLXNlY3JldC0zMmI="

const subscriptionIdParameter: PathParameter = {
  name: "subscription_id",
  description: "The subscription's id, as answered when it was created",
  schema: { type: "string", pattern: "^whk_" },
  example: EXAMPLE_SUBSCRIPTION.subscription_id
}

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
    handle: ({ body, partnerId }) =>
      Effect.flatMap(WebhookPolicy, (policy) =>
        Effect.map(WebhookAdministration.createSubscription(partnerId, body, policy), withSecret)
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
      Effect.map(WebhookAdministration.listSubscriptions(partnerId), (subscriptions) => ({
        subscriptions: subscriptions.map(listed)
      }))
  },
  {
    ...COMMON,
    operationId: "deleteWebhookSubscription",
    method: "delete",
    path: "/webhooks/subscriptions/{subscription_id}",
    summary: "Delete a webhook subscription",
    description: "Removes the subscription; deliveries not yet made to it are dropped. 404 for another partner's.",
    pathParameters: [subscriptionIdParameter],
    responses: [DeletedAnswer],
    responseDescription: "An empty JSON object",
    responseExamples: [{ name: "deleted", summary: "Deleted", value: {} }],
    errorStatuses: [404, 503],
    handle: ({ params, partnerId }) =>
      Effect.as(WebhookAdministration.removeSubscription(partnerId, params["subscription_id"] ?? ""), {})
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
      Effect.map(WebhookAdministration.rotateSecret(partnerId, params["subscription_id"] ?? ""), withSecret)
  }
]
