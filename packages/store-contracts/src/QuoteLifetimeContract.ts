/**
 * A store under the engine, with the test clock: a quote is served until
 * exactly 30 days after its creation, in both states — a sandbox's quote 7 —
 * every answer carries its status and expiry; expired quotes are purged,
 * activated ones kept for their retention, a sandbox's after 7 days.
 */
import {
  EventOutbox,
  Examples,
  IdGenerator,
  QuoteStore,
  QuotingService,
  TariffBook,
  WebhookSubscriptions
} from "@kasko/core"
import { Sandbox } from "@kasko/core/administration"
import type { QuoteLifecycle } from "@kasko/core/storage"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { expect, it } from "vitest"
import {
  bodyOf,
  DAY,
  HOUR,
  LEASE,
  type MakeQuoteStore,
  type MakeStores,
  NO_LIMIT,
  subscription
} from "./ContractHarness.js"

/** Runs programs on the engine over a fresh store from `makeLayer`, the test clock at 2026-03-02 09:00 UTC. */
const engineRunner =
  <S>(makeLayer: () => Layer.Layer<S, unknown>) =>
  <A, E>(program: Effect.Effect<A, E, S | IdGenerator.IdGenerator | TariffBook.TariffBook>): Promise<A> =>
    Effect.runPromise(
      Effect.andThen(TestClock.setTime(Date.parse("2026-03-02T09:00:00.000Z")), program).pipe(
        Effect.provide(Layer.mergeAll(makeLayer(), IdGenerator.layerSequential, TariffBook.shipped)),
        Effect.provide(TestClock.layer())
      ) as Effect.Effect<A, unknown>
    )

// partner-a's sandbox, where the sandbox cases make their quotes
const sandbox = Sandbox.sandboxOwnerOf("partner-a")

/** Two quotes in partner-a's sandbox — one awaiting activation, one activated — and one of partner-a's production. */
const sandboxAndProductionQuotes = Effect.gen(function* () {
  const awaiting = yield* QuotingService.createQuote(sandbox, Examples.quoteRequest())
  const activated = yield* QuotingService.createQuote(sandbox, Examples.quoteRequest())
  yield* QuotingService.activateQuote(sandbox, activated.quote_id)
  const production = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
  return { awaiting, activated, production }
})

/** The cases of a quote's lifetime through the engine, in the describe block that calls it. */
export const quoteLifetimeCases = (makeLayer: MakeQuoteStore): void => {
  const run = engineRunner(makeLayer)

  it("serves a quote until exactly 30 days after creation, in both states, and never after", async () => {
    const outcome = await run(
      Effect.gen(function* () {
        const awaiting = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
        const activated = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
        yield* QuotingService.activateQuote("partner-a", activated.quote_id)
        yield* TestClock.adjust(30 * DAY - 1)
        const before = yield* Effect.forEach([awaiting, activated], (quote) =>
          QuotingService.getQuote("partner-a", quote.quote_id)
        )
        yield* TestClock.adjust(1)
        const after = yield* Effect.forEach([awaiting, activated], (quote) =>
          Effect.flip(QuotingService.getQuote("partner-a", quote.quote_id))
        )
        const activation = yield* Effect.flip(QuotingService.activateQuote("partner-a", awaiting.quote_id))
        return {
          before: before.map((retrieved) => retrieved.state),
          after: after.map((error) => error._tag),
          activation: activation._tag
        }
      })
    )
    expect(outcome).toEqual({
      before: ["await_activation", "activated"],
      after: ["QuoteNotFound", "QuoteNotFound"],
      activation: "QuoteNotFound"
    })
  })

  it("answers every quote with its status and expiry, and the same quote as JSON", async () => {
    const createdText = (quote: object) => JSON.stringify(quote)
    const retrievedText = (retrieved: QuoteLifecycle.RetrievedQuote) => JSON.stringify(retrieved.quote)
    const key = { key: "retry-state", fingerprint: "body" }
    const outcome = await run(
      Effect.gen(function* () {
        const created = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest(), key)
        const createdAs = createdText(created)
        // within the 24 hours the key answers its first quote
        yield* TestClock.adjust(HOUR)
        const awaiting = yield* QuotingService.getQuote("partner-a", created.quote_id)
        const awaitingAs = retrievedText(awaiting)
        const activation = yield* QuotingService.activateQuote("partner-a", created.quote_id)
        yield* TestClock.adjust(HOUR)
        const again = yield* QuotingService.activateQuote("partner-a", created.quote_id)
        const activated = yield* QuotingService.getQuote("partner-a", created.quote_id)
        const activatedAs = retrievedText(activated)
        // a retry is answered what the first request was, though the quote has been activated since
        const retried = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest(), key)
        return { created, createdAs, awaiting, awaitingAs, activation, again, activated, activatedAs, retried }
      })
    )
    const expires_at = "2026-04-01T09:00:00.000Z"
    const awaitingState = { status: "await_activation", expires_at }
    expect(outcome.created).toMatchObject(awaitingState)
    expect(JSON.parse(outcome.createdAs)).toEqual(outcome.created)
    expect(outcome.awaiting).toMatchObject({ state: "await_activation", quote: awaitingState })
    expect(JSON.parse(outcome.awaitingAs)).toEqual(outcome.awaiting.quote)
    expect(outcome.activation).toEqual({ status: "activated", expires_at })
    expect(outcome.again).toEqual({ status: "activated", expires_at })
    expect(outcome.activated).toMatchObject({ state: "activated", quote: { status: "activated", expires_at } })
    expect(JSON.parse(outcome.activatedAs)).toEqual(outcome.activated.quote)
    expect(outcome.retried).toEqual(outcome.created)
    expect(createdText(outcome.retried)).toBe(outcome.createdAs)
  })

  it("purges expired quotes, keeping activated ones for their retention", async () => {
    const outcome = await run(
      Effect.gen(function* () {
        const awaiting = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
        const activated = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
        yield* QuotingService.activateQuote("partner-a", activated.quote_id)
        yield* TestClock.adjust(30 * DAY)
        const first = yield* QuotingService.purgeExpiredQuotes(10 * DAY)
        yield* TestClock.adjust(10 * DAY)
        const second = yield* QuotingService.purgeExpiredQuotes(10 * DAY)
        return [first, second, awaiting.quote_id !== activated.quote_id]
      })
    )
    expect(outcome).toEqual([1, 1, true])
  })

  it("keeps a partner's sandbox quotes apart from its production quotes, idempotency keys too, numbered TEST-", async () => {
    const sandbox = Sandbox.sandboxOwnerOf("partner-a")
    const outcome = await run(
      Effect.gen(function* () {
        const idempotency = { key: "same-key", fingerprint: "same-body" }
        const production = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest(), idempotency)
        const test = yield* QuotingService.createQuote(sandbox, Examples.quoteRequest(), idempotency)
        return {
          production,
          test,
          sandboxReadsProduction: yield* Effect.flip(QuotingService.getQuote(sandbox, production.quote_id)),
          productionReadsSandbox: yield* Effect.flip(QuotingService.getQuote("partner-a", test.quote_id)),
          productionActivatesSandbox: yield* Effect.flip(QuotingService.activateQuote("partner-a", test.quote_id)),
          sandboxActivates: yield* QuotingService.activateQuote(sandbox, test.quote_id),
          sandboxRead: yield* QuotingService.getQuote(sandbox, test.quote_id)
        }
      })
    )
    expect(outcome.test.quote_id).not.toBe(outcome.production.quote_id)
    expect(outcome.sandboxReadsProduction._tag).toBe("QuoteNotFound")
    expect(outcome.productionReadsSandbox._tag).toBe("QuoteNotFound")
    expect(outcome.productionActivatesSandbox._tag).toBe("QuoteNotFound")
    expect(outcome.sandboxActivates.status).toBe("activated")
    expect(outcome.test.policies[0]?.policy_number).toMatch(/^TEST-\d{10}$/)
    expect(outcome.production.policies[0]?.policy_number).toMatch(/^\d{10}$/)
    expect(outcome.sandboxRead.state).toBe("activated")
    expect((outcome.sandboxRead.quote as { quote_number?: string }).quote_number).toMatch(/^TEST-/)
  })

  it("leaves a sandbox's quotes out of the portfolio an impact test re-prices", async () => {
    const listed = await run(
      Effect.gen(function* () {
        const production = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
        yield* QuotingService.createQuote(Sandbox.sandboxOwnerOf("partner-a"), Examples.quoteRequest())
        const store = yield* QuoteStore.QuoteStore
        const portfolio = yield* store.listPortfolio({ after: undefined, limit: 100 })
        return [portfolio.map((quote) => quote.quote_id), production.quote_id] as const
      })
    )
    expect(listed[0]).toEqual([listed[1]])
  })

  it("answers a sandbox quote's expiry 7 days after its creation, in every answer, a production quote's 30", async () => {
    const sandbox = Sandbox.sandboxOwnerOf("partner-a")
    const outcome = await run(
      Effect.gen(function* () {
        const created = yield* QuotingService.createQuote(sandbox, Examples.quoteRequest())
        const production = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
        yield* TestClock.adjust(HOUR)
        const awaiting = yield* QuotingService.getQuote(sandbox, created.quote_id)
        const activation = yield* QuotingService.activateQuote(sandbox, created.quote_id)
        const activated = yield* QuotingService.getQuote(sandbox, created.quote_id)
        return { created, production, awaiting, activation, activated }
      })
    )
    const expires_at = "2026-03-09T09:00:00.000Z"
    expect(outcome.created).toMatchObject({ status: "await_activation", expires_at })
    expect(outcome.awaiting).toMatchObject({ state: "await_activation", quote: { expires_at } })
    expect(outcome.activation).toEqual({ status: "activated", expires_at })
    expect(outcome.activated).toMatchObject({
      state: "activated",
      quote: { status: "activated", expires_at, created_at: "2026-03-02T09:00:00.000Z" }
    })
    expect(outcome.production).toMatchObject({ status: "await_activation", expires_at: "2026-04-01T09:00:00.000Z" })
  })

  it("serves a sandbox quote until exactly 7 days after creation, in both states, not after, purged or not", async () => {
    const outcome = await run(
      Effect.gen(function* () {
        const { awaiting, activated, production } = yield* sandboxAndProductionQuotes
        yield* TestClock.adjust(7 * DAY - 1)
        const before = yield* Effect.forEach([awaiting, activated], (quote) =>
          QuotingService.getQuote(sandbox, quote.quote_id)
        )
        // no purge has run: the quotes are still stored, and not served
        yield* TestClock.adjust(1)
        const after = yield* Effect.forEach([awaiting, activated], (quote) =>
          Effect.flip(QuotingService.getQuote(sandbox, quote.quote_id))
        )
        const activation = yield* Effect.flip(QuotingService.activateQuote(sandbox, awaiting.quote_id))
        const explained = yield* Effect.flip(QuotingService.explainQuote(sandbox, awaiting.quote_id))
        const store = yield* QuoteStore.QuoteStore
        const stored = yield* Effect.forEach([awaiting, activated], (quote) => store.find(sandbox, quote.quote_id))
        const stays = yield* QuotingService.getQuote("partner-a", production.quote_id)
        return {
          before: before.map((retrieved) => retrieved.state),
          after: after.map((error) => error._tag),
          activation: activation._tag,
          explained: explained._tag,
          stored: stored.map(Option.isSome),
          stays: stays.state
        }
      })
    )
    expect(outcome).toEqual({
      before: ["await_activation", "activated"],
      after: ["QuoteNotFound", "QuoteNotFound"],
      activation: "QuoteNotFound",
      explained: "QuoteNotFound",
      stored: [true, true],
      stays: "await_activation"
    })
  })

  it("purges a sandbox quote 7 days after its creation, activated or not, and no production quote", async () => {
    const outcome = await run(
      Effect.gen(function* () {
        const { awaiting, activated, production } = yield* sandboxAndProductionQuotes
        yield* TestClock.adjust(7 * DAY - 1)
        const early = yield* QuotingService.purgeExpiredQuotes(10 * DAY)
        const kept = yield* QuotingService.getQuote(sandbox, awaiting.quote_id)
        yield* TestClock.adjust(1)
        const purged = yield* QuotingService.purgeExpiredQuotes(10 * DAY)
        // read from the store itself: past its 7 days a sandbox quote is not served whether or not it is still kept
        const store = yield* QuoteStore.QuoteStore
        const keptAfter = yield* Effect.forEach([awaiting, activated], (quote) => store.find(sandbox, quote.quote_id))
        const stays = yield* QuotingService.getQuote("partner-a", production.quote_id)
        return { early, kept: kept.state, purged, gone: keptAfter.map(Option.isNone), stays: stays.state }
      })
    )
    expect(outcome).toEqual({
      early: 0,
      kept: "await_activation",
      purged: 2,
      gone: [true, true],
      stays: "await_activation"
    })
  })
}

/**
 * The events of a sandbox quote's end through the engine, on a store with its outbox and subscriptions (the outbox
 * contract calls it): a purge that deletes a sandbox quote awaiting activation writes its quote.expired, as for a
 * production quote, sent only to the sandbox's subscriptions.
 */
export const sandboxExpiryCases = (makeLayer: MakeStores): void => {
  const run = engineRunner(makeLayer)

  it("writes quote.expired for a sandbox quote the purge deletes awaiting activation, sent only to the sandbox's subscriptions", async () => {
    const sandbox = Sandbox.sandboxOwnerOf("partner-a")
    const outcome = await run(
      Effect.gen(function* () {
        const outbox = yield* EventOutbox.EventOutbox
        const subscriptions = yield* WebhookSubscriptions.WebhookSubscriptions
        yield* subscriptions.insert(subscription("partner-a", "production", ["quote.expired"]), NO_LIMIT)
        yield* subscriptions.insert(subscription(sandbox, "sandbox", ["quote.expired"]), NO_LIMIT)
        const awaiting = yield* QuotingService.createQuote(sandbox, Examples.quoteRequest())
        const activated = yield* QuotingService.createQuote(sandbox, Examples.quoteRequest())
        yield* QuotingService.activateQuote(sandbox, activated.quote_id)
        const production = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
        const eventsOf = (quoteId: string) => outbox.eventsOfQuote(quoteId)
        yield* TestClock.adjust(7 * DAY - 1)
        const early = yield* QuotingService.purgeExpiredQuotes(10 * DAY)
        const beforeEvents = yield* eventsOf(awaiting.quote_id)
        yield* TestClock.adjust(1)
        const purged = yield* QuotingService.purgeExpiredQuotes(10 * DAY)
        // a second purge finds nothing more to delete, and writes nothing more
        const again = yield* QuotingService.purgeExpiredQuotes(10 * DAY)
        const now = Date.parse(awaiting.expires_at)
        const sent = yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 100 })
        return {
          awaiting,
          counts: [early, purged, again],
          beforeEvents: beforeEvents.map((event) => event.type),
          awaitingEvents: yield* eventsOf(awaiting.quote_id),
          activatedEvents: (yield* eventsOf(activated.quote_id)).map((event) => event.type),
          productionEvents: (yield* eventsOf(production.quote_id)).map((event) => event.type),
          sent: sent.map((delivery) => [delivery.url, delivery.event.type, delivery.event.quote_id])
        }
      })
    )
    expect(outcome.awaiting.expires_at).toBe("2026-03-09T09:00:00.000Z")
    expect(outcome.counts).toEqual([0, 2, 0])
    expect(outcome.beforeEvents).toEqual(["quote.created"])
    expect(outcome.awaitingEvents.map((event) => event.type)).toEqual(["quote.created", "quote.expired"])
    const expired = outcome.awaitingEvents[1]!
    // it occurred when the quote expired, as its answers said it would
    expect(expired.occurred_at).toBe(Date.parse(outcome.awaiting.expires_at))
    expect(expired.partner_id).toBe(sandbox)
    expect(bodyOf(expired)).toMatchObject({
      id: `evt_${outcome.awaiting.quote_id}_expired`,
      type: "quote.expired",
      occurred_at: outcome.awaiting.expires_at,
      partner_id: "partner-a",
      environment: "sandbox",
      data: {
        state: "await_activation",
        quote: { status: "await_activation", expires_at: outcome.awaiting.expires_at }
      }
    })
    expect(outcome.activatedEvents).toEqual(["quote.created", "quote.activated"])
    expect(outcome.productionEvents).toEqual(["quote.created"])
    expect(outcome.sent).toEqual([["https://hooks.example/sandbox", "quote.expired", outcome.awaiting.quote_id]])
  })
}
