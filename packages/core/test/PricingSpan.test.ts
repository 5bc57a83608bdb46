/**
 * The core's spans (kasko.pricing, kasko.decode) are made when a tracer was
 * provided — metrics, an exporter — and not when none was: Effect's default
 * tracer would keep a span nobody can read, at most of an offer's Effect cost.
 */
import { Effect, Layer, Tracer } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import { offerRequest } from "../src/Examples.js"
import { createOffer } from "../src/QuotingService.js"
import { shipped } from "../src/ports/TariffBook.js"

afterEach(() => {
  vi.restoreAllMocks()
})

const spanNames = (layer: Layer.Layer<never>) => {
  const span = vi.spyOn(Tracer.nativeTracer, "span")
  Effect.runSync(createOffer(offerRequest()).pipe(Effect.provide(Layer.merge(shipped, layer))))
  return span.mock.calls.map(([options]) => options.name)
}

describe("the pricing span", () => {
  it("is made when a tracer is provided", () => {
    expect(spanNames(Layer.succeed(Tracer.Tracer, Tracer.nativeTracer))).toEqual(["kasko.pricing"])
  })

  it("is not made when none is", () => {
    expect(spanNames(Layer.empty)).toEqual([])
  })
})
