/** fast-check arbitraries for the specification's inputs (fast-check 3, the major effect 3 uses). */
import fc from "fast-check"
import { POLICY_HOLDERS, VEHICLE_TYPES, VEHICLE_USAGES } from "../src/Parameters.js"
import { PRODUCT_NAMES, FEATURE_NAMES } from "../src/ProductCatalogue.js"

export const productName = fc.constantFrom(...PRODUCT_NAMES)
export const featureName = fc.constantFrom(...FEATURE_NAMES)
export const vehiclePrice = fc.integer({ min: 1_000, max: 10_000_000 })
export const driverAge = fc.integer({ min: 17, max: 99 })

/** A valid parameter set; the vehicle owner is always the organization (quotes require it). */
export const parameters = fc.record(
  {
    payments_per_year: fc.constantFrom("1", "12"),
    policy_holder: fc.constantFrom(...POLICY_HOLDERS),
    vehicle_type: fc.constantFrom(...VEHICLE_TYPES),
    vehicle_user: fc.constantFrom(...POLICY_HOLDERS),
    vehicle_owner: fc.constant("organization"),
    vehicle_usage: fc.constantFrom(...VEHICLE_USAGES),
    vehicle_price: vehiclePrice.map(String),
    youngest_user_age: driverAge.map(String)
  },
  {
    requiredKeys: [
      "payments_per_year",
      "policy_holder",
      "vehicle_type",
      "vehicle_user",
      "vehicle_owner",
      "vehicle_usage",
      "vehicle_price"
    ]
  }
)
