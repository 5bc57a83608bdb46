/** The promise facade an embedder without Effect uses. */
import {
  ConstraintViolation,
  Examples,
  IdGenerator,
  Kasko,
  QuoteNotFound,
  QuoteStore,
  StorageUnavailable
} from "@kasko/core"
import { MemoryQuoteStore } from "@kasko/memory"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { afterEach, describe, expect, it } from "vitest"

const engines: Array<Kasko.Kasko> = []
const makeEngine = () => {
  const engine = Kasko.make(Layer.merge(MemoryQuoteStore.layer, IdGenerator.layerFromRandomBytes(randomBytes)))
  engines.push(engine)
  return engine
}
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.dispose()))
})

describe("the promise facade", () => {
  it("reads a product in Danish, or in English when asked", async () => {
    const kasko = makeEngine()
    const danish = await kasko.getProduct("insurance-car-leasing")
    const english = await kasko.getProduct("insurance-car-leasing", "en")
    expect(danish.title).toBe("Partnerbilforsikring, leasing")
    expect(english.title).toBe("Partner car insurance, leasing")
    expect(english).toEqual(await kasko.getProduct("insurance-car-leasing", "en"))
    expect(await kasko.getProduct("insurance-car-leasing", "da")).toEqual(danish)
    // a caller without types may pass any string
    await expect(kasko.getProduct("insurance-car-leasing", "de" as "en")).rejects.toMatchObject({
      _tag: "ConstraintViolation",
      violations: [{ field: "language" }]
    })
  })

  it("reads a product, prices an offer, creates, retrieves and activates a quote", async () => {
    const kasko = makeEngine()
    expect((await kasko.getProduct("insurance-car-leasing")).features).toHaveLength(2)
    const offer = await kasko.createOffer(Examples.offerRequest())
    const quote = await kasko.createQuote("partner-a", Examples.quoteRequest())
    expect(quote.price.amount).toBe(offer.price.annually)
    expect(await kasko.getQuote("partner-a", quote.quote_id)).toEqual({ state: "await_activation", quote })
    await kasko.activateQuote("partner-a", quote.quote_id)
    expect((await kasko.getQuote("partner-a", quote.quote_id)).state).toBe("activated")
  })

  it("keeps the store across calls of one engine, and gives each engine its own", async () => {
    const first = makeEngine()
    const second = makeEngine()
    const quote = await first.createQuote("partner-a", Examples.quoteRequest())
    await expect(second.getQuote("partner-a", quote.quote_id)).rejects.toBeInstanceOf(QuoteNotFound)
  })

  it("rejects with the core's tagged errors, violations included", async () => {
    const kasko = makeEngine()
    const rejection = kasko.createOffer({
      product: { product_name: "insurance-car-leasing", parameters: {}, features: [] }
    })
    await expect(rejection).rejects.toBeInstanceOf(ConstraintViolation)
    await expect(rejection).rejects.toMatchObject({
      violations: expect.arrayContaining([{ field: "product.parameters.vehicle_price", message: "is required" }])
    })
    await expect(kasko.getProduct("insurance-boat")).rejects.toMatchObject({ _tag: "ProductNotFound" })
    await expect(kasko.activateQuote("partner-a", "nope")).rejects.toMatchObject({ _tag: "QuoteNotFound" })
  })

  it("explains the price behind an offer", async () => {
    const kasko = makeEngine()
    const worksheet = await kasko.explainPrice(Examples.offerRequest())
    const offer = await kasko.createOffer(Examples.offerRequest())
    expect(worksheet.annually).toBe(offer.price.annually)
    expect(worksheet.coverage_lines.map((line) => line.coverage)).toContain("kasko")
  })
})

describe("disposing the engine", () => {
  it("rejects a call still running with StorageUnavailable, tagged and not retryable", async () => {
    // a store whose reads never answer: the call is still running when the engine is disposed
    let reachedStore = () => {}
    const reading = new Promise<void>((resolve) => {
      reachedStore = resolve
    })
    const neverAnswers = Effect.suspend(() => {
      reachedStore()
      return Effect.never
    })
    // retrieval reads a quote without its worksheet; both reads, so that whichever the call makes never answers
    const slowStore = Layer.merge(
      Layer.succeed(QuoteStore.QuoteStore, {
        ...MemoryQuoteStore.makeStores().quotes,
        find: () => neverAnswers,
        findWithoutWorksheet: () => neverAnswers
      }),
      IdGenerator.layerFromRandomBytes(randomBytes)
    )
    const engine = Kasko.make(slowStore)
    const pending = engine.getQuote("partner-a", "0190f0a0-0000-7000-8000-000000000000")
    await reading
    await engine.dispose()
    const rejection = await pending.then(
      () => undefined,
      (error: unknown) => error
    )
    expect(rejection).toBeInstanceOf(StorageUnavailable)
    expect(rejection).toMatchObject({ _tag: "StorageUnavailable", retryable: false })
  })
})
