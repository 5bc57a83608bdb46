/**
 * The bench's hand-written offer function (bench/handwrittenOffer.mjs, the limit the core section
 * measures the engine against) must answer what the engine answers, or `pnpm bench` stops at its
 * check: an offer's shape changed once (issue 31's document links) and only a bench run found it.
 */
import { Examples } from "@kasko/core"
import { Pricing, TariffDocuments } from "@kasko/core/actuarial"
import { Result } from "effect"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"

const BASELINE = pathToFileURL(join(import.meta.dirname, "..", "..", "bench", "handwrittenOffer.mjs")).href

describe("the bench's hand-written offer", () => {
  it("answers what Pricing.priceOffer answers, on both products and variants, with and without a young driver", async () => {
    const { handwrittenOffer } = (await import(BASELINE)) as { handwrittenOffer: (request: unknown) => unknown }
    const tariffs = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)
    const today = new Date().toISOString().slice(0, 10)
    let compared = 0
    for (const product of ["insurance-car-leasing", "insurance-car-standalone"] as const)
      for (const feature of ["standard", "premium"] as const)
        for (const vehicle_usage of ["privat_person_koersel", "godstransport"])
          for (const vehicle_price of ["90000", "350000", "1200000"])
            for (const age of [undefined, "19", "45"]) {
              const request = Examples.offerRequest(
                Examples.standardParameters({
                  vehicle_usage,
                  vehicle_price,
                  ...(age === undefined ? {} : { youngest_user_age: age })
                }),
                product,
                feature
              )
              expect(handwrittenOffer(request)).toEqual(Result.getOrThrow(Pricing.priceOffer(tariffs, request, today)))
              compared++
            }
    expect(compared).toBe(72)
  })
})
