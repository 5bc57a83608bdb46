/**
 * Idempotency keys in the QuoteStore: the first quote stored under a key is
 * answered, with its fingerprint, to the next use; keys are per partner and
 * forgotten after `unused_before`; of concurrent uses of one key, one stores.
 */
import type { QuoteStore } from "@kasko/core"
import { Effect, Option } from "effect"
import { beforeAll, expect, it } from "vitest"
import { type MakeQuoteStore, runWithStore } from "./ContractHarness.js"
import { makeFixtures, variantOf } from "./StoredQuoteFixtures.js"

type StoredQuote = QuoteStore.StoredQuote

/** The cases of idempotency keys, in the describe block that calls it. */
export const idempotencyKeyCases = (makeLayer: MakeQuoteStore): void => {
  let fixtures: ReadonlyArray<StoredQuote> = []
  beforeAll(async () => {
    fixtures = await makeFixtures()
  })
  const withStore = runWithStore(makeLayer)

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
}
