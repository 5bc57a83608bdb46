/**
 * Prices the form's case synchronously, on every keystroke, with the core's
 * compiled engine: the request decoded by the same Schema the service decodes
 * offers with (its violations become the form's messages), the tariff chosen
 * as `priceCase` chooses it, and the tariff's pricing plan for the worksheet.
 */
import { CalendarDate, Offer, Pricing, ProductCatalogue, RatingWorksheet, Tariff } from "@kasko/core/actuarial"
import { Result } from "effect"
import { sentParameters, type CaseInput } from "./CaseInput.js"

export interface FieldViolation {
  /** A parameter name, `pricing_date`, or the request field the Schema names. */
  readonly field: string
  readonly message: string
}

export type CasePrice =
  | { readonly _tag: "Priced"; readonly worksheet: RatingWorksheet.RatingWorksheet }
  | { readonly _tag: "Rejected"; readonly violations: ReadonlyArray<FieldViolation> }

const PARAMETER_FIELD = /^product\.parameters\.([a-z_]+)$/

/** `product.parameters.vehicle_price` → `vehicle_price`: the form field a violation belongs to. */
const formFieldOf = (field: string): string => PARAMETER_FIELD.exec(field)?.[1] ?? field

/** A case the engine can price: its pricing request and the tariff that prices it. */
export interface ResolvedCase {
  readonly request: Pricing.PricingRequest
  readonly tariff: Tariff.Tariff
}

/**
 * The case decoded as the service decodes an offer with the catalogue's products (the shipped ones unless given),
 * with its tariff; or every reason it cannot be priced.
 */
export const resolveCase = (
  input: CaseInput,
  tariffs: ReadonlyArray<Tariff.Tariff>,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): Result.Result<ResolvedCase, ReadonlyArray<FieldViolation>> => {
  if (!CalendarDate.isCalendarDate(input.pricing_date))
    return Result.fail([{ field: "pricing_date", message: "must be a real date in the form YYYY-MM-DD" }])
  const request = Offer.decodeOfferRequest(
    {
      product: {
        product_name: input.product_name,
        parameters: sentParameters(input, catalogue),
        features: [{ name: input.feature }]
      }
    },
    input.pricing_date,
    catalogue
  )
  if (Result.isFailure(request))
    return Result.fail(
      request.failure.violations.map((violation) => ({
        field: formFieldOf(violation.field),
        message: violation.message
      }))
    )
  const selection = request.success.product
  const tariff =
    tariffs.length === 1 ? tariffs[0] : Tariff.tariffInForce(tariffs, selection.product_name, input.pricing_date)
  if (tariff === undefined || tariff.product_name !== selection.product_name)
    return Result.fail([
      { field: "tariff", message: `no tariff of ${selection.product_name} in force on ${input.pricing_date}` }
    ])
  return Result.succeed({ request: Pricing.pricingRequestOf(selection, input.pricing_date), tariff })
}

/** The worksheet of a case, or every reason it cannot be priced. */
export const priceCaseInput = (
  input: CaseInput,
  tariffs: ReadonlyArray<Tariff.Tariff>,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): CasePrice => {
  const resolved = resolveCase(input, tariffs, catalogue)
  return Result.isFailure(resolved)
    ? { _tag: "Rejected", violations: resolved.failure }
    : {
        _tag: "Priced",
        worksheet: RatingWorksheet.worksheetOf(Pricing.priceWith(resolved.success.tariff, resolved.success.request))
      }
}
