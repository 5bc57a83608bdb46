/** The quote lifecycle of spec §3 on the in-memory store, with the test clock. */
import { it } from "@effect/vitest"
import { Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { Sandbox } from "@kasko/core/administration"
import { TariffDocuments } from "@kasko/core/actuarial"
import { QuoteLifecycle } from "@kasko/core/storage"
import { MemoryQuoteStore } from "@kasko/memory"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"
import { DAY, failureOf, memoryEngine, NOW, startClock } from "../support.js"

const PARTNER = "partner-a"
const OTHER_PARTNER = "partner-b"

const createStandardQuote = QuotingService.createQuote(PARTNER, Examples.quoteRequest())

describe("quote lifecycle", () => {
  it.effect("activates a quote at day 29 and then answers the activated form", () =>
    Effect.gen(function* () {
      yield* startClock
      const quote = yield* createStandardQuote
      yield* TestClock.adjust(29 * DAY)
      yield* QuotingService.activateQuote(PARTNER, quote.quote_id)
      const retrieved = yield* QuotingService.getQuote(PARTNER, quote.quote_id)
      expect(retrieved.state).toBe("activated")
      if (retrieved.state !== "activated") return
      expect(retrieved.quote).toMatchObject({
        quote_id: quote.quote_id,
        price: quote.price,
        product: quote.product,
        policies: quote.policies,
        polices: quote.policies,
        agent: quote.agent,
        created_at: "2026-03-02T09:00:00.000Z",
        activated_at: "2026-03-31T09:00:00.000Z"
      })
      expect(retrieved.quote.quote_number).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/)
    }).pipe(Effect.provide(memoryEngine))
  )

  it.effect("retrieves a quote awaiting activation exactly as it was created", () =>
    Effect.gen(function* () {
      yield* startClock
      const quote = yield* createStandardQuote
      yield* TestClock.adjust(10 * DAY)
      const retrieved = yield* QuotingService.getQuote(PARTNER, quote.quote_id)
      expect(retrieved).toEqual({ state: "await_activation", quote })
    }).pipe(Effect.provide(memoryEngine))
  )

  it.effect("still serves a quote one millisecond before 30 days", () =>
    Effect.gen(function* () {
      yield* startClock
      const quote = yield* createStandardQuote
      yield* TestClock.adjust(30 * DAY - 1)
      expect((yield* QuotingService.getQuote(PARTNER, quote.quote_id)).state).toBe("await_activation")
      yield* QuotingService.activateQuote(PARTNER, quote.quote_id)
    }).pipe(Effect.provide(memoryEngine))
  )

  it.effect("answers QuoteNotFound from day 30 for a quote awaiting activation, to retrieve and to activate", () =>
    Effect.gen(function* () {
      yield* startClock
      const quote = yield* createStandardQuote
      yield* TestClock.adjust(30 * DAY)
      expect(yield* failureOf(QuotingService.getQuote(PARTNER, quote.quote_id))).toMatchObject({
        _tag: "QuoteNotFound"
      })
      expect(yield* failureOf(QuotingService.activateQuote(PARTNER, quote.quote_id))).toMatchObject({
        _tag: "QuoteNotFound"
      })
      yield* TestClock.adjust(365 * DAY)
      expect(yield* failureOf(QuotingService.getQuote(PARTNER, quote.quote_id))).toMatchObject({
        _tag: "QuoteNotFound"
      })
    }).pipe(Effect.provide(memoryEngine))
  )

  it.effect("answers QuoteNotFound from day 30 for an activated quote too", () =>
    Effect.gen(function* () {
      yield* startClock
      const quote = yield* createStandardQuote
      yield* TestClock.adjust(DAY)
      yield* QuotingService.activateQuote(PARTNER, quote.quote_id)
      yield* TestClock.adjust(29 * DAY)
      expect(yield* failureOf(QuotingService.getQuote(PARTNER, quote.quote_id))).toMatchObject({
        _tag: "QuoteNotFound"
      })
      expect(yield* failureOf(QuotingService.activateQuote(PARTNER, quote.quote_id))).toMatchObject({
        _tag: "QuoteNotFound"
      })
    }).pipe(Effect.provide(memoryEngine))
  )

  it.effect("treats a second activation as a no-op that keeps the first activation time", () =>
    Effect.gen(function* () {
      yield* startClock
      const quote = yield* createStandardQuote
      yield* QuotingService.activateQuote(PARTNER, quote.quote_id)
      yield* TestClock.adjust(5 * DAY)
      yield* QuotingService.activateQuote(PARTNER, quote.quote_id)
      const retrieved = yield* QuotingService.getQuote(PARTNER, quote.quote_id)
      expect(retrieved.state === "activated" && retrieved.quote.activated_at).toBe("2026-03-02T09:00:00.000Z")
    }).pipe(Effect.provide(memoryEngine))
  )

  it.effect("hides a quote from another partner, who can neither read nor activate it", () =>
    Effect.gen(function* () {
      yield* startClock
      const quote = yield* createStandardQuote
      expect(yield* failureOf(QuotingService.getQuote(OTHER_PARTNER, quote.quote_id))).toMatchObject({
        _tag: "QuoteNotFound",
        quote_id: quote.quote_id
      })
      expect(yield* failureOf(QuotingService.activateQuote(OTHER_PARTNER, quote.quote_id))).toMatchObject({
        _tag: "QuoteNotFound"
      })
      expect((yield* QuotingService.getQuote(PARTNER, quote.quote_id)).state).toBe("await_activation")
    }).pipe(Effect.provide(memoryEngine))
  )

  it.effect("answers QuoteNotFound for an unknown or malformed id", () =>
    Effect.gen(function* () {
      yield* startClock
      for (const id of ["00000000-0000-7000-8000-000000000999", "not-a-uuid", "", "../../etc/passwd"]) {
        expect(yield* failureOf(QuotingService.getQuote(PARTNER, id))).toMatchObject({ _tag: "QuoteNotFound" })
        expect(yield* failureOf(QuotingService.activateQuote(PARTNER, id))).toMatchObject({ _tag: "QuoteNotFound" })
      }
    }).pipe(Effect.provide(memoryEngine))
  )

  it.effect("stores nothing for an invalid request", () =>
    Effect.gen(function* () {
      yield* startClock
      const error = yield* failureOf(
        QuotingService.createQuote(PARTNER, { ...Examples.quoteRequest(), status: "activated" })
      )
      expect(error).toMatchObject({
        _tag: "ConstraintViolation",
        violations: [{ field: "status", message: "is not a known field" }]
      })
      // the sequential id layer hands out the first ids to the first stored quote
      const quote = yield* createStandardQuote
      expect(quote.quote_id).toBe("00000000-0000-7000-8000-000000000001")
    }).pipe(Effect.provide(memoryEngine))
  )

  it.effect(
    "keeps the quoted price when a new tariff takes effect before activation: activation never re-prices",
    () => {
      const v1 = TariffDocuments.SHIPPED_TARIFF_DOCUMENTS[0] as {
        rules: Array<{ event: { type: string; params: any } }>
      }
      const doubled = {
        ...v1,
        version: "v2",
        effective_from: "2026-03-10",
        rules: v1.rules.map((rule) =>
          rule.event.type === "add_coverage" && rule.event.params.premium.type === "fixed"
            ? {
                ...rule,
                event: {
                  ...rule.event,
                  params: {
                    ...rule.event.params,
                    premium: { type: "fixed", amount: rule.event.params.premium.amount * 2 }
                  }
                }
              }
            : rule
        )
      }
      const engine = Layer.mergeAll(
        MemoryQuoteStore.layer,
        IdGenerator.layerSequential,
        TariffBook.layer([...TariffDocuments.SHIPPED_TARIFF_DOCUMENTS, doubled])
      )
      return Effect.gen(function* () {
        yield* startClock
        const quote = yield* createStandardQuote
        yield* TestClock.adjust(15 * DAY)
        const repriced = yield* QuotingService.createOffer(Examples.offerRequest())
        expect(repriced.price.annually).toBeGreaterThan(quote.price.amount)
        yield* QuotingService.activateQuote(PARTNER, quote.quote_id)
        const retrieved = yield* QuotingService.getQuote(PARTNER, quote.quote_id)
        expect(retrieved.quote.price).toEqual(quote.price)
        const explained = yield* QuotingService.explainQuote(PARTNER, quote.quote_id)
        expect(explained.tariff_version).toBe("v1")
        // and the version of the product's document it was made under, stored with it
        expect(explained.product_version).toBe("v1")
      }).pipe(Effect.provide(engine))
    }
  )

  it("expires at created_at + 30 × 24 h, a sandbox's quote at created_at + 7 × 24 h", () => {
    expect(QuoteLifecycle.expiresAt({ created_at: NOW, partner_id: PARTNER })).toBe(
      Date.parse("2026-04-01T09:00:00.000Z")
    )
    expect(QuoteLifecycle.expiresAt({ created_at: NOW, partner_id: Sandbox.sandboxOwnerOf(PARTNER) })).toBe(
      Date.parse("2026-03-09T09:00:00.000Z")
    )
  })
})
