import { Effect, Layer } from "effect"
import { TestClock, TestConsole } from "effect/testing"
import { describe, expect, it } from "vitest"
import { IdGenerator, layerFromRandomBytes, layerSequential } from "../src/ports/IdGenerator.js"
import { groupsOfFour, hasValidCheckDigit, isQuoteId, luhnCheckDigit, uuidV7 } from "../src/quote/QuoteIdentifiers.js"

describe("ids", () => {
  it("forms a UUID v7 whose first 48 bits are the timestamp", () => {
    const id = uuidV7(Date.parse("2026-03-02T09:00:00Z"), new Uint8Array(10).fill(0xff))
    expect(isQuoteId(id)).toBe(true)
    expect(id[14]).toBe("7")
    expect(["8", "9", "a", "b"]).toContain(id[19])
    expect(parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBe(Date.parse("2026-03-02T09:00:00Z"))
  })

  it("computes Luhn check digits", () => {
    expect(luhnCheckDigit("7992739871")).toBe("3")
    expect(hasValidCheckDigit("79927398713")).toBe(true)
    expect(hasValidCheckDigit("79927398710")).toBe(false)
  })

  it("prints quote numbers in groups of four", () => {
    expect(groupsOfFour("1234567890123456")).toBe("1234 5678 9012 3456")
  })

  it("makes policy and quote numbers with check digits from injected random bytes", async () => {
    let counter = 0
    const bytes = (size: number) => Uint8Array.from({ length: size }, () => (counter++ * 37) % 256)
    const ids = await Effect.runPromise(
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2026-03-02T09:00:00Z"))
        const generator = yield* IdGenerator
        return {
          quoteId: yield* generator.quoteId,
          policyNumber: yield* generator.policyNumber,
          quoteNumber: yield* generator.quoteNumber
        }
      }).pipe(Effect.provide(Layer.mergeAll(layerFromRandomBytes(bytes), TestConsole.layer, TestClock.layer())))
    )
    expect(isQuoteId(ids.quoteId)).toBe(true)
    expect(ids.policyNumber).toMatch(/^[1-9]\d{9}$/)
    expect(hasValidCheckDigit(ids.policyNumber)).toBe(true)
    expect(ids.quoteNumber).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/)
    expect(hasValidCheckDigit(ids.quoteNumber.replace(/ /g, ""))).toBe(true)
  })

  it("gives distinct, valid ids from the sequential test layer", async () => {
    const ids = await Effect.runPromise(
      Effect.gen(function* () {
        const generator = yield* IdGenerator
        return [yield* generator.quoteId, yield* generator.quoteId, yield* generator.policyNumber]
      }).pipe(Effect.provide(layerSequential))
    )
    expect(new Set(ids).size).toBe(3)
    expect(isQuoteId(ids[0]!)).toBe(true)
    expect(hasValidCheckDigit(ids[2]!)).toBe(true)
  })
})
