/**
 * The webhook subscription port: partners' endpoints, kept by the same store
 * as their quotes. A subscription is the partner's own: another partner can
 * neither see nor change it.
 * @module
 */
import { Context, type Effect, type Option } from "effect"
import type { StorageUnavailable } from "../Errors.js"
import type { WebhookSubscription } from "../events/WebhookEndpoints.js"

/** The WebhookSubscriptions port: partners' webhook endpoints and their signing secrets, kept by the stores. */
export class WebhookSubscriptions extends Context.Service<
  WebhookSubscriptions,
  {
    /**
     * Stores the subscription unless its partner has `limit` already (answers false then) — checked and
     * written as one step, so partners creating at once cannot pass the limit together.
     */
    readonly insert: (subscription: WebhookSubscription, limit: number) => Effect.Effect<boolean, StorageUnavailable>
    /** The partner's subscriptions, oldest first. */
    readonly subscriptionsOf: (
      partnerId: string
    ) => Effect.Effect<ReadonlyArray<WebhookSubscription>, StorageUnavailable>
    /** Deletes the partner's subscription; answers whether there was one. Its pending deliveries go with it. */
    readonly remove: (partnerId: string, subscriptionId: string) => Effect.Effect<boolean, StorageUnavailable>
    /**
     * Delivers to the partner's disabled subscription again, from the next event on (its dead letters wait for a
     * replay); none when there is no such subscription.
     */
    readonly enable: (
      partnerId: string,
      subscriptionId: string
    ) => Effect.Effect<Option.Option<WebhookSubscription>, StorageUnavailable>
    /** Replaces the partner's subscription's secret; none when there is no such subscription. */
    readonly rotateSecret: (
      partnerId: string,
      subscriptionId: string,
      secret: string
    ) => Effect.Effect<Option.Option<WebhookSubscription>, StorageUnavailable>
  }
>()("@kasko/core/WebhookSubscriptions") {}
