/**
 * A pricing case: product, feature, parameters and pricing date — what a
 * golden row, a grid cell or a diff row prices. Priced with an explicit
 * tariff list and date, never the clock.
 */
import {
  Offer,
  Pricing,
  ProductCatalogue,
  ProductSelection,
  RatingWorksheet,
  ReferenceInterpreter,
  Tariff
} from "@kasko/core/actuarial"
import { Result } from "effect"

/** A case to price: its name, product, feature, pricing date and parameters, as the workbench's tables list them. */
export interface PricingCase {
  readonly name: string
  readonly product_name: string
  readonly feature: string
  readonly pricing_date: string
  readonly parameters: Readonly<Record<string, string>>
}

/** Thrown by `priceCase` when a case cannot be priced: its parameters do not validate, or no tariff is in force. */
export class CaseRejected extends Error {}

/** Which evaluator fires the rules: the compiled tariff (the service's), or json-rules-engine (the reference). */
export type RuleEngine = "compiled" | "json-rules-engine"

/** Prices a case with the version of the tariffs in force on its date (or the one tariff given). */
export const priceCase = async (
  testCase: PricingCase,
  tariffs: ReadonlyArray<Tariff.Tariff>,
  engine: RuleEngine = "compiled",
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): Promise<RatingWorksheet.RatingWorksheet> => {
  const request = Offer.decodeOfferRequest(
    {
      product: {
        product_name: testCase.product_name,
        parameters: testCase.parameters,
        features: [{ name: testCase.feature }]
      }
    },
    testCase.pricing_date,
    catalogue
  )
  if (Result.isFailure(request)) {
    throw new CaseRejected(
      `case ${testCase.name}: ${request.failure.violations.map((violation) => `${violation.field} ${violation.message}`).join("; ")}`
    )
  }
  const selection = request.success.product
  const tariff =
    tariffs.length === 1 ? tariffs[0] : Tariff.tariffInForce(tariffs, selection.product_name, testCase.pricing_date)
  if (tariff === undefined || tariff.product_name !== selection.product_name) {
    throw new CaseRejected(
      `case ${testCase.name}: no tariff of ${selection.product_name} in force on ${testCase.pricing_date}`
    )
  }
  const pricingRequest = {
    product_name: selection.product_name,
    parameters: selection.parameters,
    feature: ProductSelection.chosenFeature(selection),
    pricing_date: testCase.pricing_date
  }
  return RatingWorksheet.worksheetOf(
    engine === "compiled"
      ? Pricing.priceWith(tariff, pricingRequest)
      : await ReferenceInterpreter.priceInterpreted(tariff, pricingRequest)
  )
}
