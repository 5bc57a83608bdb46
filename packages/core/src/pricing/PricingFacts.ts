/**
 * The facts of a request that a tariff's rules read: made from the request by
 * `Pricing.pricingFacts`, fired on by the pricing plan, recorded in the rating
 * worksheet (which exports them as `RatingWorksheet.PricingFacts`). A module of
 * its own so that the plan and the worksheet need not import each other.
 *
 * Every product has the product's name, the variant and the feature; the rest
 * are the parameters its document marks as facts (`fact: true`), in its order —
 * for the seed products vehicle_type, vehicle_usage, vehicle_price and
 * youngest_user_age — each null when the request does not give it.
 */
import { Schema } from "effect"
import { VARIANTS } from "../product/ProductDocument.js"

export const FactValue = Schema.Union([Schema.String, Schema.Finite, Schema.Null])
export type FactValue = typeof FactValue.Type

/** The facts a tariff's rules read for one request: product, variant and feature, and each fact parameter (null when not given). */
export const PricingFacts = Schema.StructWithRest(
  Schema.Struct({
    product_name: Schema.String,
    variant: Schema.Literals(VARIANTS),
    feature: Schema.String
  }),
  [Schema.Record(Schema.String, FactValue)]
)
export type PricingFacts = typeof PricingFacts.Type

/**
 * The vehicle's price, which a tariff's `vehicle_price_bands` premiums are rated on: every car product has the
 * fact (`kasko products check` refuses a product whose tariff prices by it and who has no such number fact).
 */
export const vehiclePriceOf = (facts: PricingFacts): number => facts["vehicle_price"] as number
