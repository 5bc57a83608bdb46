/**
 * What the contracts' cases share: the stores they run against (a fresh Layer
 * each time), the times they use, and how they make a webhook subscription.
 */
import { EventOutbox, type QuoteEvents, QuoteStore, WebhookSubscriptions } from "@kasko/core"
import type { WebhookEndpoints } from "@kasko/core/transport"
import { Effect, type Layer } from "effect"

/** What an outbox contract's store Layer provides: the QuoteStore, its EventOutbox and the webhook subscriptions. */
export type Stores = QuoteStore.QuoteStore | EventOutbox.EventOutbox | WebhookSubscriptions.WebhookSubscriptions

/** Builds a fresh, empty store Layer. */
export type MakeStores = () => Layer.Layer<Stores, unknown>

/** Builds a fresh, empty QuoteStore Layer. */
export type MakeQuoteStore = () => Layer.Layer<QuoteStore.QuoteStore, unknown>

export const HOUR = 60 * 60 * 1000
export const DAY = 24 * HOUR
export const RETENTION = 365 * DAY
/** How long a dispatcher's claim leases a delivery in the cases. */
export const LEASE = 30_000
/** More subscriptions than any case makes: the limit has a case of its own. */
export const NO_LIMIT = 1_000

export interface Tools {
  readonly store: QuoteStore.QuoteStore["Service"]
  readonly outbox: EventOutbox.EventOutbox["Service"]
  readonly subscriptions: WebhookSubscriptions.WebhookSubscriptions["Service"]
}

/** Runs programs against a fresh store each; the store is closed afterwards. */
export const runWithStore =
  (makeLayer: MakeQuoteStore) =>
  <A, E>(program: (store: QuoteStore.QuoteStore["Service"]) => Effect.Effect<A, E>): Promise<A> =>
    Effect.runPromise(
      Effect.flatMap(QuoteStore.QuoteStore, program).pipe(Effect.provide(makeLayer())) as Effect.Effect<A, unknown>
    )

/** Runs programs against a fresh store, its outbox and its subscriptions each; closed afterwards. */
export const runWithTools =
  (makeLayer: MakeStores) =>
  <A, E>(program: (tools: Tools) => Effect.Effect<A, E>): Promise<A> =>
    Effect.runPromise(
      Effect.flatMap(
        Effect.all({
          store: QuoteStore.QuoteStore,
          outbox: EventOutbox.EventOutbox,
          subscriptions: WebhookSubscriptions.WebhookSubscriptions
        }),
        program
      ).pipe(Effect.provide(makeLayer())) as Effect.Effect<A, unknown>
    )

/** A subscription of a partner's, `whk_<id>`, to the event types given (all three by default). */
export const subscription = (
  partnerId: string,
  id: string,
  eventTypes: WebhookEndpoints.WebhookSubscription["event_types"] = [
    "quote.created",
    "quote.activated",
    "quote.expired"
  ]
): WebhookEndpoints.WebhookSubscription => ({
  subscription_id: `whk_${id}`,
  partner_id: partnerId,
  url: `https://hooks.example/${id}`,
  event_types: eventTypes,
  secret: `whsec_${Buffer.from(id.padEnd(32, "x")).toString("base64")}`,
  created_at: 1
})

/** What a webhook would deliver for the event, as the receiver parses it. */
export const bodyOf = (event: QuoteEvents.QuoteEvent): QuoteEvents.QuoteEventBody =>
  JSON.parse(event.payload) as QuoteEvents.QuoteEventBody
