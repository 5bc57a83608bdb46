/**
 * The facts of a request that a tariff's rules read: made from the request by
 * `Pricing.pricingFacts`, fired on by the pricing plan, recorded in the rating
 * worksheet (which exports them as `RatingWorksheet.PricingFacts`). A module of
 * its own so that the plan and the worksheet need not import each other.
 */
import { Schema } from "effect"
import { FEATURE_NAMES, PRODUCT_NAMES } from "../product/ProductCatalogue.js"

export const PricingFacts = Schema.Struct({
  product_name: Schema.Literals(PRODUCT_NAMES),
  variant: Schema.Literals(["standard", "extended"]),
  feature: Schema.Literals(FEATURE_NAMES),
  vehicle_type: Schema.String,
  vehicle_usage: Schema.String,
  vehicle_price: Schema.Int,
  youngest_user_age: Schema.NullOr(Schema.Int)
})
export type PricingFacts = typeof PricingFacts.Type
