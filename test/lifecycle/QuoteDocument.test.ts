/** The quote document of spec §2.9 as created. */
import { it } from "@effect/vitest"
import { Examples, QuoteIdentifiers, QuotingService } from "@kasko/core"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { memoryEngine, startClock } from "../support.js"

describe("the quote document", () => {
  it.effect("answers a Standard quote with insurer, coded vehicle, parties as registered and charges per payment", () =>
    Effect.gen(function* () {
      yield* startClock
      const request = Examples.quoteRequest(Examples.standardParameters({ payments_per_year: "12" }))
      const quote = yield* QuotingService.createQuote("partner-a", request)
      expect(quote.quote_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      // 7 599.55 kr a year (see ReferenceTariff case 1) × 1.05 ÷ 12 = 664.96 → 665 per month
      expect(quote.price).toEqual({
        amount: 665,
        currency: "DKK",
        payments_per_year: 12,
        // 53.35 ÷ 12 = 4.4458 → 4.45; 40 ÷ 12 = 3.33; 84 ÷ 12 = 7.00
        details: { skadesforsikringsafgift: "4.45", garantifondsbidrag: "3.33", miljøbidrag: "7.00" }
      })
      expect(quote.product).toEqual({
        product_name: "private-insurance-car-leasing",
        parameters: Examples.standardParameters({ payments_per_year: "12" }),
        features: [{ name: "standard" }]
      })
      const policy = quote.policies[0]!
      expect(policy.policy_number).toMatch(/^\d{10}$/)
      expect(QuoteIdentifiers.hasValidCheckDigit(policy.policy_number)).toBe(true)
      expect(policy.insurable_object.vehicle).toEqual({
        ...request.policy.insurable_object.vehicle,
        vehicle_type: "01",
        vehicle_usage: "01"
      })
      expect(policy.parties).toEqual(request.policy.parties)
      expect(policy.insurer).toMatchObject({ organization: { name: "Kasko Forsikring A/S" } })
      expect(quote.agent).toEqual(request.agent)
      // no DocumentLinks provided: kasko's own documents' paths, below the partner API's root
      expect(quote.privacy.policy_href).toBe("/privacy-policy")
      expect(policy.ipid_href).toBe("/products/insurance-car-leasing/variants/standard/ipid")
    }).pipe(Effect.provide(memoryEngine))
  )

  it.effect(
    "answers an Extended quote under the business product name, without insurer, phone or email, with annual charges",
    () =>
      Effect.gen(function* () {
        yield* startClock
        const parameters = Examples.standardParameters({
          policy_holder: "organization",
          vehicle_usage: "godstransport",
          vehicle_type: "varevogn"
        })
        const quote = yield* QuotingService.createQuote(
          "partner-a",
          Examples.quoteRequest(parameters, "insurance-car-standalone")
        )
        expect(quote.product.product_name).toBe("business-car-insurance-standalone")
        const policy = quote.policies[0]!
        expect(policy.insurer).toBeUndefined()
        expect(policy.insurable_object.vehicle).toMatchObject({ vehicle_type: "03", vehicle_usage: "40" })
        for (const party of policy.parties) {
          expect(party).not.toHaveProperty("phone")
          expect(party).not.toHaveProperty("email")
        }
        expect(policy.coverages.map((coverage) => coverage.name)).toContain("statsafgift")
        expect(quote.price.payments_per_year).toBe(1)
        expect(quote.price.details["garantifondsbidrag"]).toBe("40.00")
        expect(quote.price.details["miljøbidrag"]).toBe("84.00")
      }).pipe(Effect.provide(memoryEngine))
  )
})
