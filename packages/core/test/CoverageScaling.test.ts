/** A coverage's rates scaled exactly: what the workbench's target solver prices with. */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { decodeOfferRequest } from "../src/quote/Offer.js"
import { pricingRequestOf, priceWith, priceWithScaling } from "../src/pricing/Pricing.js"
import * as TariffDocuments from "../src/pricing/TariffDocuments.js"
import { offerRequest, standardParameters } from "./support.js"

const [leasing] = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)
const date = "2026-03-02"
const requestOf = (overrides: Record<string, string>) =>
  pricingRequestOf(
    Result.getOrThrow(
      decodeOfferRequest(offerRequest(standardParameters(overrides), "insurance-car-leasing", "standard"), date)
    ).product,
    date
  )

describe("pricing with one coverage's rates scaled", () => {
  it("prices as the tariff does at factor 1", () => {
    const request = requestOf({ vehicle_price: "412345", youngest_user_age: "22" })
    const scaled = priceWithScaling(leasing!, request, { coverage: "kasko", factor: { numerator: 1, denominator: 1 } })
    expect(scaled.premiums).toEqual(priceWith(leasing!, request).premiums)
    expect(scaled.annual_total_ore).toBe(priceWith(leasing!, request).annual_total_ore)
  })

  it("multiplies the coverage's exact base × loadings before its one rounding, and levies the charges on the result", () => {
    // kasko: 2 % of 300 000 + 1.2 % of 112 345 = 7 348.14 kr, × 1.3 (age 22) = 9 552.582 kr
    const request = requestOf({ vehicle_price: "412345", youngest_user_age: "22" })
    const plain = priceWith(leasing!, request)
    const factor = { numerator: 1_234_567n, denominator: 1_000_000n }
    const scaled = priceWithScaling(leasing!, request, { coverage: "kasko", factor })
    const kasko = plain.recipe.lines.findIndex((line) => line.coverage === "kasko")
    // 955 258.2 øre × 1.234567 = 1 179 330.25… øre, rounded half up once
    expect(scaled.premiums[kasko]).toBe(1_179_330)
    expect(scaled.premiums.filter((_, index) => index !== kasko)).toEqual(
      plain.premiums.filter((_, index) => index !== kasko)
    )
    const afgift = scaled.recipe.charges.findIndex((charge) => charge.charge.charge === "skadesforsikringsafgift")
    const taxable = scaled.recipe.charges[afgift]!.lines.reduce((sum, line) => sum + scaled.premiums[line]!, 0)
    expect(scaled.charge_amounts[afgift]).toBe(Math.round((taxable * 110) / 10_000))
    expect(scaled.annual_total_ore - plain.annual_total_ore).toBe(
      1_179_330 - plain.premiums[kasko]! + scaled.charge_amounts[afgift]! - plain.charge_amounts[afgift]!
    )
  })
})
