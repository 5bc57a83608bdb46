import { Examples, IdGenerator, QuoteStore, QuotingService, TariffBook } from "@kasko/core"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { layer, makeQuoteStore } from "../src/MemoryQuoteStore.js"

const storedQuote = async (): Promise<QuoteStore.StoredQuote> => {
  let captured: QuoteStore.StoredQuote | undefined
  const capturing = Layer.succeed(QuoteStore.QuoteStore, {
    ...makeQuoteStore(),
    insert: (quote) =>
      Effect.sync(() => {
        captured = quote
      })
  })
  await Effect.runPromise(
    Effect.andThen(
      TestClock.setTime(Date.parse("2026-03-02T09:00:00Z")),
      QuotingService.createQuote("partner-a", Examples.quoteRequest())
    ).pipe(
      Effect.provide(Layer.mergeAll(capturing, IdGenerator.layerSequential, TariffBook.shipped)),
      Effect.provide(TestClock.layer())
    )
  )
  return captured!
}

describe("the in-memory QuoteStore", () => {
  it("reads back what it stored, for its partner only", async () => {
    const quote = await storedQuote()
    const store = makeQuoteStore()
    await Effect.runPromise(store.insert(quote))
    expect(await Effect.runPromise(store.find("partner-a", quote.quote_id))).toEqual(Option.some(quote))
    expect(await Effect.runPromise(store.find("partner-b", quote.quote_id))).toEqual(Option.none())
  })

  it("activates once: a later activation keeps the first time", async () => {
    const quote = await storedQuote()
    const store = makeQuoteStore()
    await Effect.runPromise(store.insert(quote))
    await Effect.runPromise(store.markActivated("partner-a", quote.quote_id, 1000))
    const again = await Effect.runPromise(store.markActivated("partner-a", quote.quote_id, 2000))
    expect(Option.getOrThrow(again).activated_at).toBe(1000)
    expect(await Effect.runPromise(store.markActivated("partner-b", quote.quote_id, 3000))).toEqual(Option.none())
  })

  it("hands out copies, so a caller cannot change what is stored", async () => {
    const quote = await storedQuote()
    const store = makeQuoteStore()
    await Effect.runPromise(store.insert(quote))
    const copy = Option.getOrThrow(await Effect.runPromise(store.find("partner-a", quote.quote_id))) as {
      activated_at: number | null
    }
    copy.activated_at = 5
    expect(Option.getOrThrow(await Effect.runPromise(store.find("partner-a", quote.quote_id))).activated_at).toBeNull()
  })

  it("builds a new, empty store for each layer build", async () => {
    const quote = await storedQuote()
    const program = Effect.flatMap(QuoteStore.QuoteStore, (store) => store.find("partner-a", quote.quote_id))
    await Effect.runPromise(
      Effect.flatMap(QuoteStore.QuoteStore, (store) => store.insert(quote)).pipe(Effect.provide(layer))
    )
    expect(await Effect.runPromise(program.pipe(Effect.provide(layer)))).toEqual(Option.none())
  })
})
