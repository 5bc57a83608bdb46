import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { optionsOf } from "./arbitraries.js"

const POLICY_HOLDERS = optionsOf("policy_holder")
const VEHICLE_USAGES = optionsOf("vehicle_usage")
import { variantOf } from "../src/product/Variant.js"

const PRODUCTS = ["insurance-car-leasing", "insurance-car-standalone"] as const

describe("variant derivation (spec §1)", () => {
  it("is Extended exactly when the holder or the user is an organization, or the usage is not private driving", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...POLICY_HOLDERS),
        fc.constantFrom(...POLICY_HOLDERS),
        fc.constantFrom(...VEHICLE_USAGES),
        fc.constantFrom(...PRODUCTS),
        (policy_holder, vehicle_user, vehicle_usage, product) => {
          const extendedCondition =
            policy_holder === "organization" ||
            vehicle_user === "organization" ||
            vehicle_usage !== "privat_person_koersel"
          expect(variantOf(product, { policy_holder, vehicle_user, vehicle_usage })).toBe(
            extendedCondition ? "extended" : "standard"
          )
        }
      ),
      { numRuns: 200 }
    )
  })

  it("is Standard for a person holding and using a car for private driving", () => {
    for (const product of PRODUCTS)
      expect(
        variantOf(product, {
          policy_holder: "person",
          vehicle_user: "person",
          vehicle_usage: "privat_person_koersel"
        })
      ).toBe("standard")
  })
})
