/** fast-check arbitraries for the specification's inputs (fast-check 3, the major effect 3 uses). */
import fc from "fast-check"
import { productDefinition } from "../src/product/ProductCatalogue.js"

/** The ids of a parameter's options in the leasing product's document. */
export const optionsOf = (name: string): ReadonlyArray<string> =>
  productDefinition("insurance-car-leasing")!
    .parameters.find((parameter) => parameter.name === name)!
    .options!.map((option) => option.id)
const POLICY_HOLDERS = optionsOf("policy_holder")
const VEHICLE_TYPES = optionsOf("vehicle_type")
const VEHICLE_USAGES = optionsOf("vehicle_usage")
import { PRODUCT_NAMES, FEATURE_NAMES } from "../src/product/ProductCatalogue.js"
import { FACT_NAMES, OPERATORS, type Condition } from "../src/pricing/Tariff.js"

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

/** json-rules-engine condition trees over the tariff's facts and operators, comparing with `factValue`s. */
export const conditionTrees = (factValue: fc.Arbitrary<unknown>) => {
  const leaf = fc.oneof(
    fc.record({
      fact: fc.constantFrom(...FACT_NAMES),
      operator: fc.constantFrom("in" as const, "notIn" as const),
      value: fc.array(factValue, { maxLength: 4 })
    }),
    fc.record({
      fact: fc.constantFrom(...FACT_NAMES),
      operator: fc.constantFrom(...OPERATORS.filter((operator) => operator !== "in" && operator !== "notIn")),
      value: factValue
    })
  )
  const condition: fc.Arbitrary<Condition> = fc.letrec<{ node: Condition }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf as fc.Arbitrary<Condition>,
      fc.record({ all: fc.array(tie("node"), { maxLength: 3 }) }),
      fc.record({ any: fc.array(tie("node"), { maxLength: 3 }) }),
      fc.record({ not: tie("node") })
    )
  })).node
  const topLevel = fc.oneof(
    fc.record({ all: fc.array(condition, { maxLength: 3 }) }),
    fc.record({ any: fc.array(condition, { maxLength: 3 }) }),
    fc.record({ not: condition })
  )
  return { condition, topLevel }
}
