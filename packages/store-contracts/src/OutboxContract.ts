/**
 * The outbox contract every store honours (memory, SQLite, PostgreSQL): a
 * committed change has exactly one event, written with it; a change that
 * fails or does not happen (a duplicate, an idempotency key already used, a
 * second activation) has none (QuoteEventContract.ts); a purge that deletes a
 * sandbox's quote awaiting activation writes its quote.expired too
 * (QuoteLifetimeContract.ts). Deliveries go to the
 * subscriptions of the event's time, one dispatcher at a time (leases), in
 * order per quote and endpoint, retried when due, dead-lettered and replayed
 * (DeliveryContract.ts), fairly among partners (DispatcherSharingContract.ts);
 * subscriptions fail, are disabled and are each partner's own
 * (SubscriptionContract.ts). Run it with a factory that builds a fresh, empty
 * store Layer providing the QuoteStore, its EventOutbox and the webhook
 * subscriptions.
 */
import { describe } from "vitest"
import { deliveryCases } from "./DeliveryContract.js"
import { dispatcherSharingCases } from "./DispatcherSharingContract.js"
import type { MakeStores } from "./ContractHarness.js"
import { quoteEventCases } from "./QuoteEventContract.js"
import { sandboxExpiryCases } from "./QuoteLifetimeContract.js"
import { subscriptionCases } from "./SubscriptionContract.js"

/**
 * Registers the outbox contract's vitest suites (events, deliveries, sharing the dispatcher, subscriptions) for a
 * store named `name`: call it from the store's own test file, with a factory of fresh, empty store Layers.
 */
export const outboxContract = (name: string, makeLayer: MakeStores): void => {
  describe(`EventOutbox contract: ${name}`, () => {
    quoteEventCases(makeLayer)
    describe("a sandbox quote's end, through the engine with the test clock", () => {
      sandboxExpiryCases(makeLayer)
    })
  })

  describe(`webhook deliveries: ${name}`, () => {
    deliveryCases(makeLayer)
    describe("sharing the dispatcher among partners", () => {
      dispatcherSharingCases(makeLayer)
    })
    subscriptionCases(makeLayer)
  })
}
