/**
 * The storage contract every QuoteStore honours (memory, SQLite, PostgreSQL):
 * run it with a factory that builds a fresh, empty store Layer.
 */
import type { QuoteStore } from "@kasko/core"
import { QuoteLifecycle } from "@kasko/core/storage"
import { Effect, Option } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { DAY, HOUR, type MakeQuoteStore, runWithStore } from "./ContractHarness.js"
import { idempotencyKeyCases } from "./IdempotencyKeyContract.js"
import { quoteLifetimeCases } from "./QuoteLifetimeContract.js"
import { makeFixtures, variantOf } from "./StoredQuoteFixtures.js"

type StoredQuote = QuoteStore.StoredQuote

/**
 * Registers the QuoteStore contract's vitest suite (storing, finding, activating, idempotency keys, lifetimes) for a
 * store named `name`: call it from the store's own test file, with a factory of fresh, empty QuoteStore Layers.
 */
export const quoteStoreContract = (name: string, makeLayer: MakeQuoteStore): void => {
  describe(`QuoteStore contract: ${name}`, () => {
    let fixtures: ReadonlyArray<StoredQuote> = []
    beforeAll(async () => {
      fixtures = await makeFixtures()
    })

    /** Runs a program against a fresh store; the store is closed afterwards. */
    const withStore = runWithStore(makeLayer)

    const found = (option: Option.Option<StoredQuote>) =>
      Option.getOrThrowWith(option, () => new Error("quote not found"))

    it("reads back every field it stored, Danish letters included", async () => {
      const readBack = await withStore((store) =>
        Effect.gen(function* () {
          for (const fixture of fixtures) yield* store.insert(fixture)
          return yield* Effect.forEach(fixtures, (fixture) => store.find(fixture.partner_id, fixture.quote_id))
        })
      )
      expect(readBack.map(found)).toEqual(fixtures)
      const person = found(readBack[0]!).quote.policies[0]!.parties[0]!
      expect(person.person?.first_name).toBe("Åse Ærtebølle")
      expect(person.address?.protected).toBe(true)
      expect(JSON.stringify(found(readBack[0]!).quote)).toBe(JSON.stringify(fixtures[0]!.quote))
    })

    it("reads a quote without its worksheet as it reads it whole, and keeps partners apart there too", async () => {
      const fixture = fixtures[0]!
      const outcome = await withStore((store) =>
        Effect.gen(function* () {
          yield* store.insert(fixture)
          yield* store.markActivated(fixture.partner_id, fixture.quote_id, fixture.created_at + DAY)
          return {
            whole: found(yield* store.find(fixture.partner_id, fixture.quote_id)),
            withoutWorksheet: yield* store.findWithoutWorksheet(fixture.partner_id, fixture.quote_id),
            otherPartner: yield* store.findWithoutWorksheet("partner-z", fixture.quote_id),
            unknown: yield* store.findWithoutWorksheet(fixture.partner_id, "0190a000-0000-7000-8000-ffffffffffff")
          }
        })
      )
      const { worksheet: _worksheet, ...wholeWithoutWorksheet } = outcome.whole
      expect(outcome.withoutWorksheet).toEqual(Option.some(wholeWithoutWorksheet))
      expect(Option.getOrThrow(outcome.withoutWorksheet)).not.toHaveProperty("worksheet")
      expect(outcome.otherPartner).toEqual(Option.none())
      expect(outcome.unknown).toEqual(Option.none())
    })

    it("answers the activated form (spec §2.10) from what it stored", async () => {
      const fixture = fixtures[0]!
      const activated = await withStore((store) =>
        Effect.gen(function* () {
          yield* store.insert(fixture)
          return found(yield* store.markActivated(fixture.partner_id, fixture.quote_id, fixture.created_at + DAY))
        })
      )
      const retrieved = QuoteLifecycle.retrievedForm(activated)
      expect(retrieved).toEqual({
        state: "activated",
        quote: {
          ...fixture.quote,
          status: "activated",
          expires_at: "2026-04-01T09:00:00.000Z",
          polices: fixture.quote.policies,
          quote_number: fixture.quote_number,
          created_at: "2026-03-02T09:00:00.000Z",
          activated_at: "2026-03-03T09:00:00.000Z"
        }
      })
    })

    it("keeps partners apart: another partner neither finds nor activates a quote", async () => {
      const fixture = fixtures[0]!
      const outcome = await withStore((store) =>
        Effect.gen(function* () {
          yield* store.insert(fixture)
          return {
            found: yield* store.find("partner-z", fixture.quote_id),
            activated: yield* store.markActivated("partner-z", fixture.quote_id, 1),
            own: yield* store.find(fixture.partner_id, fixture.quote_id)
          }
        })
      )
      expect(outcome.found).toEqual(Option.none())
      expect(outcome.activated).toEqual(Option.none())
      expect(found(outcome.own).activated_at).toBeNull()
    })

    it("takes a readiness write probe, again and again, without changing what readers see", async () => {
      const fixture = fixtures[0]!
      const readBack = await withStore((store) =>
        Effect.gen(function* () {
          yield* store.insert(fixture)
          yield* store.checkWritable
          yield* store.checkWritable
          return yield* store.find(fixture.partner_id, fixture.quote_id)
        })
      )
      expect(found(readBack)).toEqual(fixture)
    })

    it("finds nothing for an unknown id", async () => {
      const outcome = await withStore((store) =>
        Effect.all([
          store.find("partner-a", "0190a000-0000-7000-8000-ffffffffffff"),
          store.markActivated("partner-a", "nope", 1)
        ])
      )
      expect(outcome).toEqual([Option.none(), Option.none()])
    })

    it("activates idempotently: a second activation keeps the first time", async () => {
      const fixture = fixtures[1]!
      const [first, second] = await withStore((store) =>
        Effect.gen(function* () {
          yield* store.insert(fixture)
          const first = yield* store.markActivated(fixture.partner_id, fixture.quote_id, 1_000)
          const second = yield* store.markActivated(fixture.partner_id, fixture.quote_id, 2_000)
          return [found(first), found(second)] as const
        })
      )
      expect(first.activated_at).toBe(1_000)
      expect(second.activated_at).toBe(1_000)
    })

    it("writes the activation time once when activations race", async () => {
      const fixture = fixtures[1]!
      const outcome = await withStore((store) =>
        Effect.gen(function* () {
          yield* store.insert(fixture)
          const results = yield* Effect.forEach(
            Array.from({ length: 20 }, (_, index) => 10_000 + index),
            (time) => store.markActivated(fixture.partner_id, fixture.quote_id, time),
            { concurrency: "unbounded" }
          )
          return { results: results.map(found), stored: found(yield* store.find(fixture.partner_id, fixture.quote_id)) }
        })
      )
      const times = new Set(outcome.results.map((quote) => quote.activated_at))
      expect(times.size).toBe(1)
      expect(outcome.stored.activated_at).toBe([...times][0])
    })

    it("purges quotes past their cutoffs, per state, and keeps the rest", async () => {
      const base = fixtures[0]!
      const quotes = [
        variantOf(base, 1, { created_at: 100 }), // awaiting, at the awaiting cutoff: purged
        variantOf(base, 2, { created_at: 101 }), // awaiting, after it: kept
        variantOf(base, 3, { created_at: 50, activated_at: 60 }), // activated, at the activated cutoff: purged
        variantOf(base, 4, { created_at: 51, activated_at: 60 }) // activated, after it: kept
      ]
      const outcome = await withStore((store) =>
        Effect.gen(function* () {
          for (const quote of quotes) yield* store.insert(quote)
          const deleted = yield* store.purge({ awaitingCreatedAtOrBefore: 100, activatedCreatedAtOrBefore: 50 })
          const left = yield* Effect.forEach(quotes, (quote) => store.find(quote.partner_id, quote.quote_id))
          return { deleted, left: left.map(Option.isSome) }
        })
      )
      expect(outcome).toEqual({ deleted: 2, left: [false, true, false, true] })
    })

    it("stores very long strings intact", async () => {
      const base = fixtures[0]!
      const long = "Ærø ".repeat(50_000)
      const quote = variantOf(base, 7, {
        quote: {
          ...base.quote,
          quote_id: variantOf(base, 7).quote_id,
          agent: { ...base.quote.agent, user_id: long },
          policies: [{ ...base.quote.policies[0]!, ipid_href: `https://example.dk/${"x".repeat(100_000)}` }]
        }
      })
      const readBack = await withStore((store) =>
        Effect.andThen(store.insert(quote), store.find(quote.partner_id, quote.quote_id))
      )
      expect(found(readBack)).toEqual(quote)
    })

    it("refuses a second quote with an id already stored, and keeps the first", async () => {
      const fixture = fixtures[0]!
      const outcome = await withStore((store) =>
        Effect.gen(function* () {
          yield* store.insert(fixture)
          const duplicate = yield* Effect.exit(store.insert({ ...fixture, partner_id: "partner-z", activated_at: 5 }))
          return { duplicate, stored: yield* store.find(fixture.partner_id, fixture.quote_id) }
        })
      )
      expect(outcome.duplicate._tag).toBe("Failure")
      expect(found(outcome.stored)).toEqual(fixture)
    })

    describe("idempotency keys", () => {
      idempotencyKeyCases(makeLayer)
    })

    it("reads back 10 000 quotes identical to what it stored", async () => {
      const quotes = Array.from({ length: 10_000 }, (_, index) => variantOf(fixtures[index % fixtures.length]!, index))
      const readBack = await withStore((store) =>
        Effect.gen(function* () {
          for (const quote of quotes) yield* store.insert(quote)
          return yield* Effect.forEach(quotes, (quote) => store.find(quote.partner_id, quote.quote_id))
        })
      )
      expect(readBack.map(found)).toEqual(quotes)
    }, 120_000)

    it("lists the portfolio a page at a time: every quote once, its pricing inputs and state, never its parties", async () => {
      const quotes = Array.from({ length: 7 }, (_, index) => variantOf(fixtures[index % fixtures.length]!, 7 - index))
      const pages = await withStore((store) =>
        Effect.gen(function* () {
          for (const quote of quotes) yield* store.insert(quote)
          yield* store.markActivated(quotes[1]!.partner_id, quotes[1]!.quote_id, quotes[1]!.created_at + HOUR)
          const listed: Array<ReadonlyArray<QuoteStore.PortfolioQuote>> = []
          let after: string | undefined
          for (;;) {
            const page = yield* store.listPortfolio({ after, limit: 3 })
            if (page.length === 0) break
            listed.push(page)
            after = page.at(-1)!.quote_id
          }
          return { listed, whole: yield* store.listPortfolio({ after: undefined, limit: 100 }) }
        })
      )
      expect(pages.listed.map((page) => page.length)).toEqual([3, 3, 1])
      expect(pages.listed.flat()).toEqual(pages.whole)
      expect(new Set(pages.whole.map((entry) => entry.quote_id))).toEqual(
        new Set(quotes.map((quote) => quote.quote_id))
      )
      for (const quote of quotes) {
        const entry = pages.whole.find((listed) => listed.quote_id === quote.quote_id)!
        expect(entry).toEqual({
          quote_id: quote.quote_id,
          state: quote === quotes[1] ? "activated" : "await_activation",
          created_at: quote.created_at,
          tariff_version: quote.tariff_version,
          product_name: quote.worksheet.facts.product_name,
          feature: quote.quote.product.features[0]!.name,
          parameters: quote.quote.product.parameters,
          annual_total_ore: quote.worksheet.annual_total_ore
        })
      }
      expect(JSON.stringify(pages.whole)).not.toMatch(/parties|Ærtebølle|cpr_number/)
      // both products, as the quotes were created
      expect(new Set(pages.whole.map((entry) => entry.product_name))).toEqual(
        new Set(["insurance-car-leasing", "insurance-car-standalone"])
      )
    })

    describe("through the engine, with the test clock", () => {
      quoteLifetimeCases(makeLayer)
    })
  })
}
