/**
 * The stores as the service instruments them: quotes created, activated and
 * expired are counted by what the stores did — an idempotent replay creates
 * nothing, a second activation activates nothing, the purge's expiries are
 * the unactivated quotes it removed, not a sandbox's quotes gone after 7 days
 * (which the instrumented purge still deletes) — created and activated ones in
 * their owner's environment, production or a partner's sandbox; and every call
 * is timed.
 */
import { Examples, IdGenerator, QuoteStore, QuotingService, TariffBook } from "@kasko/core"
import { Sandbox } from "@kasko/core/administration"
import { MemoryPartnerStore, MemoryQuoteStore } from "@kasko/memory"
import { Effect, Layer, Option, Tracer } from "effect"
import { TestClock } from "effect/testing"
import { expect, it } from "vitest"
import { instrumentedStores } from "../src/InstrumentedStores.js"
import { makeServiceMetrics } from "../src/ServiceMetrics.js"
import { timingTracer } from "../src/TimingTracer.js"

const DAY = 24 * 60 * 60 * 1000
const PARTNER = "partner-a"

const sampleTotal = async (metrics: ReturnType<typeof makeServiceMetrics>, name: string, labels = {}) => {
  const metric = await metrics.registry.getSingleMetric(name)!.get()
  const samples = metric.values.filter((sample) =>
    Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
  )
  return samples.reduce((sum, sample) => sum + sample.value, 0)
}

it("counts quotes created, activated and expired by what the stores did, and times each call", async () => {
  const metrics = makeServiceMetrics("sqlite")
  const stores = instrumentedStores(Layer.merge(MemoryQuoteStore.layer, MemoryPartnerStore.layer), metrics)
  const purged = await Effect.runPromise(
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-03-02T09:00:00.000Z"))
      const activated = yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
      yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
      const keyed = { key: "order-1", fingerprint: "f" }
      yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest(), keyed)
      // the same key again: the earlier quote answers, nothing is created
      yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest(), keyed)
      yield* QuotingService.activateQuote(PARTNER, activated.quote_id)
      yield* QuotingService.activateQuote(PARTNER, activated.quote_id)
      // past the validity: the two unactivated quotes expire; the activated one is kept a year
      yield* TestClock.adjust(31 * DAY)
      const first = yield* QuotingService.purgeExpiredQuotes(365 * DAY)
      // past the retention: the activated quote goes, and it did not expire
      yield* TestClock.adjust(400 * DAY)
      const second = yield* QuotingService.purgeExpiredQuotes(365 * DAY)
      return [first, second]
    }).pipe(
      Effect.provide(Layer.mergeAll(stores, IdGenerator.layerSequential, TariffBook.shipped)),
      Effect.withTracer(timingTracer(Tracer.nativeTracer, metrics)),
      Effect.provide(TestClock.layer())
    )
  )
  expect(purged).toEqual([2, 1])
  expect(await sampleTotal(metrics, "kasko_quotes_created_total", { environment: "production" })).toBe(3)
  expect(await sampleTotal(metrics, "kasko_quotes_created_total", { environment: "sandbox" })).toBe(0)
  expect(await sampleTotal(metrics, "kasko_quotes_activated_total", { environment: "production" })).toBe(1)
  expect(await sampleTotal(metrics, "kasko_quotes_expired_total")).toBe(2)
  expect(
    await sampleTotal(metrics, "kasko_store_call_duration_seconds", { store: "quotes", operation: "purge" })
  ).toBeGreaterThan(0)
})

it("purges a sandbox's quotes after 7 days, activated or not, without counting them expired", async () => {
  const metrics = makeServiceMetrics("sqlite")
  const stores = instrumentedStores(Layer.merge(MemoryQuoteStore.layer, MemoryPartnerStore.layer), metrics)
  const sandbox = Sandbox.sandboxOwnerOf(PARTNER)
  const [purged, found] = await Effect.runPromise(
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-03-02T09:00:00.000Z"))
      const awaiting = yield* QuotingService.createQuote(sandbox, Examples.quoteRequest())
      const activated = yield* QuotingService.createQuote(sandbox, Examples.quoteRequest())
      yield* QuotingService.activateQuote(sandbox, activated.quote_id)
      const production = yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
      yield* TestClock.adjust(7 * DAY)
      const purged = yield* QuotingService.purgeExpiredQuotes(365 * DAY)
      // read from the store itself: past its 7 days a sandbox quote is not served whether or not it is still kept
      const store = yield* QuoteStore.QuoteStore
      const found = (partnerId: string, quoteId: string) => Effect.map(store.find(partnerId, quoteId), Option.isSome)
      return [
        purged,
        [
          yield* found(sandbox, awaiting.quote_id),
          yield* found(sandbox, activated.quote_id),
          yield* found(PARTNER, production.quote_id)
        ]
      ] as const
    }).pipe(
      Effect.provide(Layer.mergeAll(stores, IdGenerator.layerSequential, TariffBook.shipped)),
      Effect.provide(TestClock.layer())
    )
  )
  expect(purged).toBe(2)
  expect(found).toEqual([false, false, true])
  expect(await sampleTotal(metrics, "kasko_quotes_expired_total")).toBe(0)
  // created and activated in the environment of their owner: the sandbox's two and one, production's one
  expect(await sampleTotal(metrics, "kasko_quotes_created_total", { environment: "sandbox" })).toBe(2)
  expect(await sampleTotal(metrics, "kasko_quotes_created_total", { environment: "production" })).toBe(1)
  expect(await sampleTotal(metrics, "kasko_quotes_activated_total", { environment: "sandbox" })).toBe(1)
  expect(await sampleTotal(metrics, "kasko_quotes_activated_total", { environment: "production" })).toBe(0)
})
