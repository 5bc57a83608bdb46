/**
 * The quote request (spec §2.8): product, policy (vehicle and parties) and agent.
 * @module
 */
import { Result } from "effect"
import { isCalendarDate, type CalendarDate } from "../input/CalendarDate.js"
import { decodeAll, rawAt } from "../input/Decoding.js"
import { constraintViolationOf, type ConstraintViolation, type Violation } from "../Errors.js"
import { checkBirthDates } from "../product/Parameters.js"
import { isPNumber, isVin } from "./IdentityNumbers.js"
import { checkRoles, CvrNumber, Parties } from "./Parties.js"
import { type Catalogue, partyRolesOf, perCatalogue, shipped } from "../product/ProductCatalogue.js"
import {
  notSoldYet,
  parametersOf,
  perProduct,
  ProductSelection,
  productSelectionOf
} from "../product/ProductSelection.js"
import { CheckedString, DateText, optionalString, RequestObject, Text } from "../input/Fields.js"

const VIN_PATTERN = "^[A-HJ-NPR-Z0-9]{17}$"
const REGISTRATION_PATTERN = "^[A-ZÆØÅ0-9 ]{1,10}$"
const REGISTRATION_FORM = new RegExp(REGISTRATION_PATTERN)
const P_NUMBER_PATTERN = "^[0-9]{10}$"

/** The insured vehicle in a quote request: make, model, variant, and its VIN or registration number. */
export const Vehicle = RequestObject({
  make: Text(50),
  model: Text(50),
  variant: optionalString(Text(100), { maxLength: 100 }),
  vin: optionalString(
    CheckedString(isVin, "must be 17 capital letters and digits, without I, O and Q", { pattern: VIN_PATTERN }),
    {
      maxLength: 17,
      pattern: VIN_PATTERN,
      description: "The vehicle identification number (ISO 3779)"
    }
  ),
  registration_number: optionalString(
    CheckedString((value) => REGISTRATION_FORM.test(value), "must be 1–10 capital letters, digits and spaces", {
      maxLength: 10,
      pattern: REGISTRATION_PATTERN
    }),
    { maxLength: 10, pattern: REGISTRATION_PATTERN }
  )
})

const AgentOrganization = RequestObject({
  name: Text(200),
  cvr_number: CvrNumber,
  cvrp_number: optionalString(
    CheckedString(isPNumber, "must be a P-number of 10 digits", { pattern: P_NUMBER_PATTERN }),
    {
      maxLength: 10,
      pattern: P_NUMBER_PATTERN,
      description: "The P-number of the agent's production unit"
    }
  )
})

/** The partner's agent who makes a quote request: the user and their organization. */
export const Agent = RequestObject({
  user_id: Text(100),
  organization: AgentOrganization
})
export type Agent = typeof Agent.Type

const PolicyRequest = RequestObject({
  brand_id: Text(50),
  external_reference: optionalString(Text(100), { maxLength: 100 }),
  expected_effective_at: DateText,
  insurable_object: RequestObject({ vehicle: Vehicle }),
  parties: Parties
})

const quoteRequestOf = (product: typeof ProductSelection) =>
  RequestObject({
    product,
    policy: PolicyRequest,
    agent: Agent
  })

/** `POST /insurance/car/quotes` body, for a product of a catalogue: its API reference form. */
export const quoteRequestSchemaOf = perCatalogue((catalogue) => quoteRequestOf(productSelectionOf(catalogue)))

/** `POST /insurance/car/quotes` body, for a shipped product. */
export const QuoteRequest = quoteRequestOf(ProductSelection)
export type QuoteRequest = Omit<typeof QuoteRequest.Type, "product"> & { readonly product: ProductSelection }
/** A quote request as a client sends it, before it is decoded: what `Kasko.createQuote` decodes (`Examples.quoteRequest` makes one). */
export type QuoteRequestInput = typeof QuoteRequest.Encoded

// each product's quote request: its own parameters and features
const quoteRequestFor = perProduct(quoteRequestOf)

/** The policy may not take effect before the day it is quoted. */
const checkEffectiveDate = (rawDate: unknown, pricingDate: CalendarDate): Array<Violation> =>
  typeof rawDate === "string" && isCalendarDate(rawDate) && rawDate < pricingDate
    ? [{ field: "policy.expected_effective_at", message: `must not be before ${pricingDate}` }]
    : []

/**
 * Decodes a quote request against the products in force on the pricing date, reporting every violation together:
 * fields, dates and party roles.
 */
export const decodeQuoteRequest = (
  input: unknown,
  pricingDate: CalendarDate,
  whole: Catalogue = shipped
): Result.Result<QuoteRequest, ConstraintViolation> => {
  const catalogue = whole.on(pricingDate)
  const decoded = decodeAll(quoteRequestFor(input, catalogue), input)
  const rawParameters = rawAt(input, "product", "parameters")
  const violations = [
    ...(Result.isFailure(decoded)
      ? notSoldYet(decoded.failure, rawAt(input, "product", "product_name"), whole, catalogue)
      : []),
    ...checkBirthDates(
      parametersOf(rawAt(input, "product", "product_name"), catalogue),
      rawParameters,
      pricingDate,
      "product.parameters"
    ),
    ...checkEffectiveDate(rawAt(input, "policy", "expected_effective_at"), pricingDate),
    ...checkRoles(
      partyRolesOf(rawAt(input, "product", "product_name"), catalogue),
      rawParameters,
      rawAt(input, "policy", "parties")
    )
  ]
  const failure = constraintViolationOf(violations)
  return failure !== undefined ? Result.fail(failure) : Result.succeed(Result.getOrThrow(decoded) as QuoteRequest)
}
