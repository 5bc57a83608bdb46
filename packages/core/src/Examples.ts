/**
 * Example requests a partner sends, and what they are answered with:
 * documentation for embedders and API readers (the OpenAPI document's
 * examples), and the fixtures of kasko's own tests and command line.
 * @module
 */
import { Result } from "effect"
import { groupsOfFour, luhnCheckDigit } from "./quote/QuoteIdentifiers.js"
import { decodeOfferRequest, offerOf, type PriceOffer } from "./quote/Offer.js"
import { priceWith, pricingRequestOf } from "./pricing/Pricing.js"
import type { ProductName } from "./product/ProductCatalogue.js"
import { quoteOf, type ActivatedQuote, type Quote, type QuoteActivation } from "./quote/Quote.js"
import { activationOf, awaitingQuote, retrievedForm } from "./quote/QuoteLifecycle.js"
import { worksheetOf } from "./pricing/RatingWorksheet.js"
import { decodeQuoteRequest } from "./quote/QuoteRequest.js"
import type { StoredQuote } from "./ports/QuoteStore.js"
import { tariffInForce } from "./pricing/Tariff.js"
import { decodeTariffs, SHIPPED_TARIFF_DOCUMENTS } from "./pricing/TariffDocuments.js"

/** Product parameters as a request carries them: every value a JSON string. */
export type ParameterValues = Record<string, string>

/** A complete Standard-variant parameter set (a person holds and uses a car for private driving), with overrides. */
export const standardParameters = (overrides: ParameterValues = {}): ParameterValues => ({
  payments_per_year: "1",
  policy_holder: "person",
  vehicle_type: "personbil",
  vehicle_user: "person",
  vehicle_owner: "organization",
  vehicle_usage: "privat_person_koersel",
  vehicle_price: "200000",
  ...overrides
})

/** An offer request `{product}` (spec §4, endpoint 2). */
export const offerRequest = (
  parameters: ParameterValues = standardParameters(),
  productName: string = "insurance-car-leasing",
  feature: string = "standard"
) => ({ product: { product_name: productName, parameters, features: [{ name: feature }] } })

/**
 * A valid quote request (spec §2.8) whose parties fit the role parameters: a
 * person (when a role parameter names one) and the partner organization, which
 * always owns the vehicle.
 */
export const quoteRequest = (
  parameters: ParameterValues = standardParameters(),
  productName: string = "insurance-car-leasing",
  feature: string = "standard"
) => {
  const holderIsPerson = parameters["policy_holder"] === "person"
  const userIsPerson = parameters["vehicle_user"] === "person"
  return {
    ...offerRequest(parameters, productName, feature),
    policy: {
      brand_id: "brand-1",
      external_reference: "lease-2026-0042",
      expected_effective_at: "2030-04-01",
      insurable_object: {
        vehicle: {
          make: "Škoda",
          model: "Enyaq",
          variant: "80 iV",
          vin: "TMBJB7NY5MF012345",
          registration_number: "AB 12 345"
        }
      },
      parties: [
        ...(holderIsPerson || userIsPerson
          ? [
              {
                policy_holder: holderIsPerson,
                vehicle_user: userIsPerson,
                person: { cpr_number: "0101901234", first_name: "Søren", last_name: "Kierkegård" },
                phone: "+45 12 34 56 78",
                email: "soeren@example.dk",
                address: {
                  street: "Æblevej",
                  house_number: "7",
                  floor: "2",
                  door: "tv",
                  postal_code: 8000,
                  city: "Aarhus C"
                }
              }
            ]
          : []),
        {
          policy_holder: !holderIsPerson,
          vehicle_user: !userIsPerson,
          vehicle_owner: true,
          organization: { name: "Leasing Partner ApS", cvr_number: "12345682" }
        }
      ]
    },
    agent: {
      user_id: "agent-7",
      organization: { name: "Bilhuset Øst A/S", cvr_number: "12345690", cvrp_number: "1012345678" }
    }
  }
}

/** The day the example answers are priced on (tariff v1 and its charges are in force). */
const EXAMPLE_PRICING_DATE = "2026-03-02"
const EXAMPLE_CREATED_AT = Date.parse(`${EXAMPLE_PRICING_DATE}T09:00:00.000Z`)

const exampleTariff = (productName: ProductName) =>
  tariffInForce(decodeTariffs(SHIPPED_TARIFF_DOCUMENTS), productName, EXAMPLE_PRICING_DATE)!

/** What `offerRequest()` is answered with (spec §2.6): documentation, priced by the engine with the shipped tariff. */
export const priceOfferAnswer = (): PriceOffer => {
  const request = Result.getOrThrow(decodeOfferRequest(offerRequest(), EXAMPLE_PRICING_DATE))
  return offerOf(
    request,
    priceWith(exampleTariff(request.product.product_name), pricingRequestOf(request.product, EXAMPLE_PRICING_DATE))
  )
}

const exampleStoredQuote = (): StoredQuote => {
  const request = Result.getOrThrow(decodeQuoteRequest(quoteRequest(), EXAMPLE_PRICING_DATE))
  const worksheet = worksheetOf(
    priceWith(exampleTariff(request.product.product_name), pricingRequestOf(request.product, EXAMPLE_PRICING_DATE))
  )
  const ids = {
    quote_id: "0195574f-8e28-7c3a-9b1d-5f2e8a4c6d10",
    policy_number: `100000421${luhnCheckDigit("100000421")}`
  }
  return {
    ...ids,
    partner_id: "bilhuset",
    quote_number: groupsOfFour(`400000123456789${luhnCheckDigit("400000123456789")}`),
    created_at: EXAMPLE_CREATED_AT,
    activated_at: null,
    tariff_version: worksheet.tariff_version,
    quote: quoteOf(request, worksheet, ids),
    worksheet
  }
}

/** What `quoteRequest()` is answered with (spec §2.9), as created and retrieved while awaiting activation. */
export const quoteAnswer = (): Quote => awaitingQuote(exampleStoredQuote())

/** What activating that quote answers (spec §4's empty object, plus the quote's state and expiry). */
export const activationAnswer = (): QuoteActivation => activationOf(exampleStoredQuote())

/** The same quote retrieved after its activation (spec §2.10). */
export const activatedQuoteAnswer = (): ActivatedQuote => {
  const retrieved = retrievedForm({ ...exampleStoredQuote(), activated_at: EXAMPLE_CREATED_AT + 2 * 60 * 60 * 1000 })
  if (retrieved.state !== "activated") throw new Error("an activated quote retrieves in its activated form")
  return retrieved.quote
}
