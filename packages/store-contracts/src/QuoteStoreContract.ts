/**
 * The storage contract every QuoteStore honours (memory, SQLite, PostgreSQL):
 * run it with a factory that builds a fresh, empty store Layer.
 */
import { IdGenerator, QuoteStore, QuotingService, TariffBook, Examples } from "@kasko/core"
import { QuoteLifecycle } from "@kasko/core/storage"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { beforeAll, describe, expect, it } from "vitest"
import { makeFixtures, variantOf } from "./StoredQuoteFixtures.js"

type StoredQuote = QuoteStore.StoredQuote
type StoreLayer = Layer.Layer<QuoteStore.QuoteStore, unknown>

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

export const quoteStoreContract = (name: string, makeLayer: () => StoreLayer): void => {
  describe(`QuoteStore contract: ${name}`, () => {
    let fixtures: ReadonlyArray<StoredQuote> = []
    beforeAll(async () => {
      fixtures = await makeFixtures()
    })

    /** Runs a program against a fresh store; the store is closed afterwards. */
    const withStore = <A, E>(program: (store: QuoteStore.QuoteStore["Service"]) => Effect.Effect<A, E>) =>
      Effect.runPromise(
        Effect.flatMap(QuoteStore.QuoteStore, program).pipe(Effect.provide(makeLayer())) as Effect.Effect<A, unknown>
      )

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
      const use = (key: string, fingerprint: string, unusedBefore = 0) => ({
        key,
        fingerprint,
        unused_before: unusedBefore
      })

      it("stores the first quote under a key and answers it, with its fingerprint, to the next use", async () => {
        const [first, second] = [variantOf(fixtures[0]!, 901), variantOf(fixtures[0]!, 902)]
        const outcome = await withStore((store) =>
          Effect.gen(function* () {
            const stored = yield* store.insertIdempotent(first, use("retry-1", "body-a"))
            const replayed = yield* store.insertIdempotent(second, use("retry-1", "body-b"))
            return { stored, replayed, second: yield* store.find(second.partner_id, second.quote_id) }
          })
        )
        expect(outcome.stored).toEqual(Option.none())
        expect(outcome.replayed).toEqual(Option.some({ quote: first, fingerprint: "body-a" }))
        expect(outcome.second).toEqual(Option.none())
      })

      it("keeps keys per partner, and forgets a use older than unused_before", async () => {
        const mine = variantOf(fixtures[0]!, 911)
        const theirs = variantOf(fixtures[0]!, 912, { partner_id: "partner-z" })
        const later = variantOf(fixtures[0]!, 913, { created_at: mine.created_at + 10 })
        const outcome = await withStore((store) =>
          Effect.gen(function* () {
            yield* store.insertIdempotent(mine, use("shared-key", "a"))
            const otherPartner = yield* store.insertIdempotent(theirs, use("shared-key", "a"))
            const afterExpiry = yield* store.insertIdempotent(later, use("shared-key", "b", mine.created_at))
            const again = yield* store.insertIdempotent(
              variantOf(fixtures[0]!, 914),
              use("shared-key", "b", mine.created_at)
            )
            return { otherPartner, afterExpiry, again }
          })
        )
        expect(outcome.otherPartner).toEqual(Option.none())
        expect(outcome.afterExpiry).toEqual(Option.none())
        expect(outcome.again).toEqual(Option.some({ quote: later, fingerprint: "b" }))
      })

      it("stores exactly one quote of 20 concurrent uses of one key, and answers it to all the others", async () => {
        const attempts = Array.from({ length: 20 }, (_, index) => variantOf(fixtures[1]!, 920 + index))
        const outcome = await withStore((store) =>
          Effect.gen(function* () {
            const results = yield* Effect.forEach(
              attempts,
              (quote) => store.insertIdempotent(quote, use("burst", "same-body")),
              { concurrency: "unbounded" }
            )
            const stored = yield* Effect.forEach(attempts, (quote) => store.find(quote.partner_id, quote.quote_id))
            return { results, stored }
          })
        )
        expect(outcome.stored.filter(Option.isSome)).toHaveLength(1)
        const winner = Option.getOrThrow(outcome.stored.find(Option.isSome)!)
        expect(outcome.results.filter(Option.isNone)).toHaveLength(1)
        for (const result of outcome.results.filter(Option.isSome)) expect(result.value.quote).toEqual(winner)
      })
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
      const engineLayer = () => Layer.mergeAll(makeLayer(), IdGenerator.layerSequential, TariffBook.shipped)
      const run = <A, E>(
        program: Effect.Effect<A, E, QuoteStore.QuoteStore | IdGenerator.IdGenerator | TariffBook.TariffBook>
      ) =>
        Effect.runPromise(
          Effect.andThen(TestClock.setTime(Date.parse("2026-03-02T09:00:00.000Z")), program).pipe(
            Effect.provide(engineLayer()),
            Effect.provide(TestClock.layer())
          ) as Effect.Effect<A, unknown>
        )

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
    })
  })
}
