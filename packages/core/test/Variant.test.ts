/** The variant rule as data: what the workbench explains is what prices. */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { decodeOfferRequest } from "../src/quote/Offer.js"
import { priceAsVariant, priceWith, pricingRequestOf } from "../src/pricing/Pricing.js"
import { worksheetOf } from "../src/pricing/RatingWorksheet.js"
import { decodeTariffs, SHIPPED_TARIFF_DOCUMENTS } from "../src/pricing/TariffDocuments.js"
import { extendedBecause, firstVariantWhen } from "../src/product/Variant.js"
import { offerRequest, standardParameters } from "./support.js"

const DATE = "2026-03-02"
const requestOf = (parameters: Record<string, string>) => {
  const decoded = decodeOfferRequest(offerRequest(parameters), DATE)
  if (Result.isFailure(decoded)) throw new Error(JSON.stringify(decoded.failure))
  return pricingRequestOf(decoded.success.product, DATE)
}
const lines = (computation: ReturnType<typeof priceWith>) =>
  worksheetOf(computation).coverage_lines.map((line) => line.coverage)
const leasing = decodeTariffs(SHIPPED_TARIFF_DOCUMENTS).find(
  (tariff) => tariff.product_name === "insurance-car-leasing"
)!

describe("the variant rule", () => {
  it("names the three parameters and the values that make a case Standard (spec §1)", () => {
    for (const product of ["insurance-car-leasing", "insurance-car-standalone"])
      expect(firstVariantWhen(product)).toEqual({
        policy_holder: "person",
        vehicle_user: "person",
        vehicle_usage: "privat_person_koersel"
      })
  })

  it("says which parameters make a case Extended, none for a Standard case", () => {
    expect(extendedBecause("insurance-car-leasing", standardParameters())).toEqual([])
    expect(extendedBecause("insurance-car-leasing", standardParameters({ vehicle_usage: "godstransport" }))).toEqual([
      "vehicle_usage"
    ])
    expect(
      extendedBecause(
        "insurance-car-leasing",
        standardParameters({ policy_holder: "organization", vehicle_user: "organization" })
      )
    ).toEqual(["policy_holder", "vehicle_user"])
  })
})

describe("pricing a case as the other variant", () => {
  it("prices a Standard case as Extended exactly as an Extended case of the same facts prices", () => {
    const standard = requestOf(standardParameters())
    const extended = requestOf(standardParameters({ policy_holder: "organization" }))
    expect(worksheetOf(priceAsVariant(leasing, standard, "extended"))).toEqual(
      worksheetOf(priceWith(leasing, extended))
    )
  })

  it("changes the coverages with the variant alone", () => {
    const standard = requestOf(standardParameters())
    expect(lines(priceAsVariant(leasing, standard, "standard"))).toEqual(lines(priceWith(leasing, standard)))
    expect(lines(priceAsVariant(leasing, standard, "extended"))).toContain("friskade")
    expect(lines(priceWith(leasing, standard))).not.toContain("friskade")
  })
})
