import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { pricingRequestOf, priceWith } from "../src/pricing/Pricing.js"
import { priceInterpreted } from "../src/pricing/ReferenceInterpreter.js"
import { decodeOfferRequest } from "../src/quote/Offer.js"
import { chargesInForce, decodeTariff, Tariff, tariffInForce, type TariffDocument } from "../src/pricing/Tariff.js"
import * as TariffBook from "../src/ports/TariffBook.js"
import * as TariffDocuments from "../src/pricing/TariffDocuments.js"
import * as QuotingService from "../src/QuotingService.js"
import * as ProductCatalogue from "../src/product/ProductCatalogue.js"
import leasingV1 from "../tariffs/insurance-car-leasing/v1.json" with { type: "json" }
import { failureAt, offerRequest, runAt, standardParameters } from "./support.js"

const leasing = leasingV1 as unknown as TariffDocument
const decode = (document: unknown) => decodeTariff(document)

/** Leasing v1 with every fixed amount raised by 10 %, effective from a later date. */
const raisedVersion = (version: string, effectiveFrom: string): TariffDocument => ({
  ...leasing,
  version,
  effective_from: effectiveFrom,
  rules: leasing.rules.map((rule) =>
    rule.event.type === "add_coverage" && rule.event.params.premium.type === "fixed"
      ? {
          ...rule,
          event: {
            ...rule.event,
            params: { ...rule.event.params, premium: { type: "fixed", amount: rule.event.params.premium.amount * 1.1 } }
          }
        }
      : rule
  )
})

describe("tariff documents", () => {
  it("decodes the shipped tariffs", () => {
    expect(
      TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS).map((tariff) => [
        tariff.product_name,
        tariff.version
      ])
    ).toEqual([
      ["insurance-car-leasing", "v1"],
      ["insurance-car-standalone", "v1"]
    ])
  })

  it.each([
    ["a fact the engine does not supply", { fact: "colour", operator: "equal", value: "red" }, "colour"],
    ["an operator the tariff may not use", { fact: "variant", operator: "regex", value: "x" }, "regex"],
    [
      "`in` with a value that is not a list (json-rules-engine would throw while pricing)",
      { fact: "vehicle_usage", operator: "in", value: "godstransport" },
      'Expected array, got "godstransport"'
    ]
  ])("rejects a rule reading %s, naming it", (_what, condition, named) => {
    const document = { ...leasing, rules: [{ ...leasing.rules[0]!, conditions: { all: [condition] } }] }
    const decoded = decode(document)
    expect(Result.isFailure(decoded)).toBe(true)
    expect(Result.getFailure(decoded).pipe((message) => message._tag === "Some" && message.value.includes(named))).toBe(
      true
    )
  })

  it("rejects an unknown instruction, bands out of order and duplicate rule names", () => {
    const rule = leasing.rules[0]!
    expect(
      Result.isFailure(decode({ ...leasing, rules: [{ ...rule, event: { type: "discount_everything", params: {} } }] }))
    ).toBe(true)
    expect(
      Result.isFailure(
        decode({
          ...leasing,
          rules: [
            {
              ...rule,
              event: {
                type: "add_coverage",
                params: {
                  coverage: "kasko",
                  id: "X",
                  premium: {
                    type: "vehicle_price_bands",
                    bands: [
                      { up_to: 300000, rate_basis_points: 1 },
                      { up_to: 200000, rate_basis_points: 1 }
                    ]
                  }
                }
              }
            }
          ]
        })
      )
    ).toBe(true)
    expect(Result.isFailure(decode({ ...leasing, rules: [rule, rule] }))).toBe(true)
  })

  it("reads a tariff that names the youngest user's age by its former name, youngest_driver_age, and prices the same", async () => {
    const current = JSON.stringify(leasing)
    expect(current).toContain('"fact":"youngest_user_age"')
    const former = JSON.parse(current.replaceAll('"fact":"youngest_user_age"', '"fact":"youngest_driver_age"'))
    expect(JSON.stringify(former)).not.toContain("youngest_user_age")
    const formerTariff = Result.getOrThrow(decode(former))
    const currentTariff = Result.getOrThrow(decode(leasing))
    expect(formerTariff).toEqual(currentTariff)
    // written back, it says the current name
    expect(JSON.stringify(Schema.encodeSync(Tariff)(formerTariff))).not.toContain("youngest_driver_age")

    // every age band of the tariff's loadings, and no age given
    for (const age of [undefined, "18", "20", "21", "24", "25", "40", "99"]) {
      const request = offerRequest(standardParameters(age === undefined ? {} : { youngest_user_age: age }))
      const formerPrice = await runAt(QuotingService.explainPrice(request), TariffBook.layer([former]))
      const currentPrice = await runAt(QuotingService.explainPrice(request), TariffBook.layer([leasing]))
      expect(formerPrice, `age ${age}`).toEqual(currentPrice)
    }
    // and json-rules-engine, the reference interpreter, fires the young user's loadings on the rules as decoded
    const young = pricingRequestOf(
      Result.getOrThrow(decodeOfferRequest(offerRequest(standardParameters({ youngest_user_age: "19" })), "2026-03-02"))
        .product,
      "2026-03-02"
    )
    const interpreted = await priceInterpreted(formerTariff, young)
    expect(interpreted.annual_total_ore).toBe(priceWith(currentTariff, young).annual_total_ore)
    expect(interpreted.annual_total_ore).toBeGreaterThan(
      priceWith(currentTariff, { ...young, parameters: { ...young.parameters, youngest_user_age: 40 } })
        .annual_total_ore
    )
  })

  it("refuses to build a TariffBook from an invalid document, with a readable message", () => {
    expect(() => TariffDocuments.decodeTariffs([{ ...leasing, currency: "EUR" }])).toThrow(
      /tariff document 0 is invalid/
    )
  })

  it("says a document's first problem briefly, where it is, however large the value it found", () => {
    const rules = leasing.rules.map((rule, index) => (index === 1 ? { ...rule, conditions: "x".repeat(30_000) } : rule))
    const problem = TariffDocuments.decodeTariffFile({ ...leasing, rules, currency: "EUR" })
    expect(Result.isFailure(problem) && problem.failure).toMatch(/^Expected "DKK", got "EUR" at currency$/)
    const long = TariffDocuments.decodeTariffFile({ ...leasing, rules })
    expect(Result.isFailure(long) && long.failure).toMatch(/^Expected .{0,160}… at rules\[1\]\.conditions$/)
    expect(Result.isSuccess(TariffDocuments.decodeTariffFile(leasing))).toBe(true)
  })

  it("chooses the version in force by effective_from, so a new version can be loaded ahead of its start", () => {
    const tariffs = TariffDocuments.decodeTariffs([leasing, raisedVersion("v2", "2026-07-01")])
    expect(tariffInForce(tariffs, "insurance-car-leasing", "2026-06-30")?.version).toBe("v1")
    expect(tariffInForce(tariffs, "insurance-car-leasing", "2026-07-01")?.version).toBe("v2")
    expect(tariffInForce(tariffs, "insurance-car-leasing", "2024-12-31")).toBeUndefined()
    expect(tariffInForce(tariffs, "insurance-car-standalone", "2026-07-01")).toBeUndefined()
  })

  it("prices with the version in force on the pricing date", async () => {
    const book = TariffBook.layer([leasing, raisedVersion("v2", "2026-07-01")])
    const request = offerRequest(standardParameters())
    const before = await runAt(QuotingService.explainPrice(request), book, Date.parse("2026-06-30T23:59:59Z"))
    const after = await runAt(QuotingService.explainPrice(request), book, Date.parse("2026-07-01T00:00:00Z"))
    expect(before.tariff_version).toBe("v1")
    expect(after.tariff_version).toBe("v2")
    expect(after.annually).toBeGreaterThan(before.annually)
  })

  it("answers TariffNotInForce before the first version starts, the product being sold already", async () => {
    // the leasing product sold from 2024, its tariff from 2025
    const leasingFrom2024 = ProductCatalogue.withProducts([
      { ...ProductCatalogue.shipped.document("insurance-car-leasing")!, effective_from: "2024-01-01" }
    ])
    const error = await failureAt(
      QuotingService.createOffer(offerRequest(standardParameters())),
      TariffBook.ofCatalogue(leasingFrom2024, [leasing]),
      Date.parse("2024-06-01T00:00:00Z")
    )
    expect(error).toMatchObject({
      _tag: "TariffNotInForce",
      product_name: "insurance-car-leasing",
      pricing_date: "2024-06-01"
    })
  })

  it("refuses an offer before the product's first version takes effect, saying when it is first sold", async () => {
    const error = await failureAt(
      QuotingService.createOffer(offerRequest(standardParameters())),
      TariffBook.shipped,
      Date.parse("2024-06-01T00:00:00Z")
    )
    expect(error).toMatchObject({
      _tag: "ConstraintViolation",
      violations: [
        {
          field: "product.product_name",
          message: "is not sold before 2025-01-01, when its first version takes effect"
        }
      ]
    })
  })

  it("applies each charge's latest row in force, so a change in law is a data change", () => {
    const document = {
      ...leasing,
      charges: [
        ...leasing.charges,
        { charge: "miljøbidrag", effective_from: "2026-06-01", type: "flat", amount: 61, shown_in_price_details: true }
      ]
    }
    const tariff = Result.getOrThrow(decode(document))
    const miljøbidrag = (date: string) => chargesInForce(tariff, date).find((charge) => charge.charge === "miljøbidrag")
    expect(miljøbidrag("2026-05-31")).toMatchObject({ amount: 8400 })
    expect(miljøbidrag("2026-06-01")).toMatchObject({ amount: 6100 })
  })
})
