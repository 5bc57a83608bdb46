/**
 * The hot path's acceptance checks answer exactly as the Schemas do: whatever
 * they accept decodes to the same value through the Schema, and whatever the
 * Schema accepts they accept — so the fast path never lets through, nor turns
 * away, anything the Schema would not.
 */
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  acceptParameters,
  POLICY_HOLDERS,
  ProductParameters,
  VEHICLE_TYPES,
  VEHICLE_USAGES
} from "../src/product/Parameters.js"
import { acceptSelection, ProductSelection } from "../src/product/ProductSelection.js"
import { FEATURE_NAMES, PRODUCT_NAMES } from "../src/product/ProductCatalogue.js"

const strict = { errors: "all", onExcessProperty: "error" } as const
const schemaParameters = (raw: unknown) =>
  Result.getOrUndefined(Schema.decodeUnknownResult(ProductParameters, strict)(raw))
const schemaSelection = (raw: unknown) =>
  Result.getOrUndefined(Schema.decodeUnknownResult(ProductSelection, strict)(raw))

const oddValue = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\t",
    " ".repeat(11),
    " ".repeat(13),
    " 1000",
    "1e5",
    "-17",
    "0017",
    "12.5",
    "person ",
    "Person",
    "2001-02-29",
    "2024-02-29",
    "1800-01-01",
    "99",
    "100",
    "16",
    "17"
  ),
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
  fc.constant([]),
  fc.constant({})
)

const validValues: Record<string, fc.Arbitrary<string>> = {
  payments_per_year: fc.constantFrom("1", "12"),
  policy_holder: fc.constantFrom(...POLICY_HOLDERS),
  vehicle_type: fc.constantFrom(...VEHICLE_TYPES),
  vehicle_user: fc.constantFrom(...POLICY_HOLDERS),
  vehicle_owner: fc.constantFrom(...POLICY_HOLDERS),
  vehicle_usage: fc.constantFrom(...VEHICLE_USAGES),
  vehicle_price: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1_000, max: 10_000_000 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom("1000", "10000000", "999", "10000001", "0") }
  ),
  youngest_user_age: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 17, max: 99 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom("16", "100", "0") }
  ),
  youngest_user_birthdate: fc
    .date({ min: new Date("1900-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10))
}

/** Mostly-valid parameter maps: each field valid, odd, or absent, and now and then an unknown key. */
const parameterMaps = fc
  .record(
    Object.fromEntries(
      Object.entries(validValues).map(([name, valid]) => [
        name,
        fc.option(fc.oneof({ weight: 30, arbitrary: valid }, { weight: 1, arbitrary: oddValue }), {
          nil: undefined,
          freq: 30
        })
      ])
    )
  )
  .chain((map) =>
    fc.tuple(
      fc.constant(map),
      fc.oneof(
        { weight: 12, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom("colour", "__proto__", "vehicle"), oddValue) }
      )
    )
  )
  .map(([map, extra]) => {
    const cleaned: Record<string, unknown> = Object.fromEntries(
      Object.entries(map).filter(([, value]) => value !== undefined)
    )
    if (extra !== null)
      Object.defineProperty(cleaned, extra[0], {
        value: extra[1],
        enumerable: true,
        writable: true,
        configurable: true
      })
    return cleaned
  })

const selections = fc.record({
  product_name: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...PRODUCT_NAMES) },
    { weight: 1, arbitrary: oddValue }
  ),
  parameters: fc.oneof({ weight: 8, arbitrary: parameterMaps }, { weight: 1, arbitrary: oddValue }),
  features: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...FEATURE_NAMES).map((name) => [{ name }]) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        [],
        [{ name: "standard" }, { name: "premium" }],
        [{ name: "gold" }],
        [{ name: "premium", extra: 1 }],
        "standard"
      )
    }
  )
})

describe("the hot path's acceptance checks", () => {
  it("accept exactly the parameter maps the Schema accepts, with the same decoded value", () => {
    let accepted = 0
    fc.assert(
      fc.property(parameterMaps, (map) => {
        const fast = acceptParameters(map)
        expect(fast).toEqual(schemaParameters(map))
        if (fast !== undefined) accepted++
      }),
      { numRuns: 3000 }
    )
    expect(accepted).toBeGreaterThan(300)
  })

  it("accept exactly the product selections the Schema accepts, with the same decoded value", () => {
    fc.assert(
      fc.property(selections, (selection) => {
        expect(acceptSelection(selection)).toEqual(schemaSelection(selection))
      }),
      { numRuns: 2000 }
    )
  })
})
