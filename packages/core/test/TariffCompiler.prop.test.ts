/**
 * The compiled tariff and json-rules-engine agree: a compiled condition holds
 * exactly when json-rules-engine fires its rule, and a pricing plan fires the
 * same rules and prices the same worksheet, for generated parameter sets on
 * the shipped tariffs and for randomly generated tariffs.
 */
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { FEATURE_NAMES, PRODUCT_NAMES } from "../src/product/ProductCatalogue.js"
import type { ProductParameters } from "../src/product/Parameters.js"
import { optionsOf } from "./arbitraries.js"

const POLICY_HOLDERS = optionsOf("policy_holder")
const VEHICLE_TYPES = optionsOf("vehicle_type")
const VEHICLE_USAGES = optionsOf("vehicle_usage")
import { Engine } from "json-rules-engine"
import { priceWith, pricingFacts, type PricingRequest } from "../src/pricing/Pricing.js"
import { firedByJsonRulesEngine, priceInterpreted } from "../src/pricing/ReferenceInterpreter.js"
import { planOf } from "../src/pricing/TariffPlans.js"
import { worksheetOf } from "../src/pricing/RatingWorksheet.js"
import { decodeTariff, FACT_NAMES, Tariff, type Condition, type TariffDocument } from "../src/pricing/Tariff.js"
import { conditionTrees } from "./arbitraries.js"
import { decodeTariffs, SHIPPED_TARIFF_DOCUMENTS } from "../src/pricing/TariffDocuments.js"
import { compileCondition, TariffNotCompilable, type Facts } from "../src/pricing/TariffCompiler.js"

const shipped = decodeTariffs(SHIPPED_TARIFF_DOCUMENTS)

const parameters: fc.Arbitrary<ProductParameters> = fc.record(
  {
    payments_per_year: fc.constantFrom(1 as const, 12 as const),
    policy_holder: fc.constantFrom(...POLICY_HOLDERS),
    vehicle_type: fc.constantFrom(...VEHICLE_TYPES),
    vehicle_user: fc.constantFrom(...POLICY_HOLDERS),
    vehicle_owner: fc.constantFrom(...POLICY_HOLDERS),
    vehicle_usage: fc.constantFrom(...VEHICLE_USAGES),
    vehicle_price: fc.oneof(
      fc.integer({ min: 1_000, max: 10_000_000 }),
      fc.constantFrom(1_000, 299_999, 300_000, 300_001, 10_000_000)
    ),
    youngest_user_age: fc.integer({ min: 17, max: 99 })
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

const request = (tariff: Tariff): fc.Arbitrary<PricingRequest> =>
  fc.record({
    product_name: fc.constant(tariff.product_name),
    parameters,
    feature: fc.constantFrom(...FEATURE_NAMES),
    pricing_date: fc.constant("2026-03-02")
  })

/** Either the worksheet or the error message: two rules adding one coverage must fail the same way in both. */
const outcome = async (price: () => unknown) => {
  try {
    return { worksheet: await price() }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

const expectSameOutcome = async (tariff: Tariff, pricingRequest: PricingRequest) => {
  const facts = pricingFacts(pricingRequest)
  expect(planOf(tariff).fire(facts)).toEqual(await firedByJsonRulesEngine(tariff, facts))
  expect(await outcome(() => worksheetOf(priceWith(tariff, pricingRequest)))).toEqual(
    await outcome(async () => worksheetOf(await priceInterpreted(tariff, pricingRequest)))
  )
}

// random tariffs: rules over every fact and operator, with every kind of instruction
const factValue = fc.oneof(
  fc.constantFrom(
    "standard",
    "extended",
    "premium",
    "personbil",
    "varevogn",
    "godstransport",
    "privat_person_koersel",
    ...PRODUCT_NAMES
  ),
  fc.integer({ min: 0, max: 2_000_000 }),
  fc.constantFrom(17, 21, 25, 28, 300_000),
  fc.constant(null)
)
const { topLevel } = conditionTrees(factValue)
const coverage = fc.constantFrom("kasko", "ansvar", "vejhjælp", "friskade", "retshjælp")
const instruction = fc.oneof(
  fc.record({
    type: fc.constant("add_coverage"),
    params: fc.record({
      coverage,
      id: fc.constant("X-1"),
      premium: fc.oneof(
        fc.record({ type: fc.constant("fixed"), amount: fc.integer({ min: 0, max: 5_000 }) }),
        fc.record({
          type: fc.constant("vehicle_price_bands"),
          bands: fc.constant([
            { up_to: 300_000, rate_basis_points: 200 },
            { up_to: null, rate_basis_points: 120 }
          ])
        })
      )
    })
  }),
  fc.record({
    type: fc.constant("apply_loading"),
    params: fc.record({
      loading: fc.constant("l"),
      coverages: fc.uniqueArray(coverage, { minLength: 1, maxLength: 3 }),
      percent: fc.integer({ min: -50, max: 80 })
    })
  }),
  fc.record({
    type: fc.constantFrom("set_deductible", "set_limit"),
    params: fc.record({ coverage, amount: fc.integer({ min: 0, max: 100_000 }) })
  }),
  fc.record({
    type: fc.constant("list_charge_as_coverage"),
    params: fc.record({ charge: fc.constant("statsafgift"), id: fc.constant("X-S") })
  })
)
const randomTariff: fc.Arbitrary<Tariff> = fc
  .record({
    product_name: fc.constantFrom(...PRODUCT_NAMES),
    rules: fc.array(
      fc.record({
        priority: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
        conditions: topLevel,
        event: instruction
      }),
      { minLength: 1, maxLength: 12 }
    )
  })
  .map(({ product_name, rules }) => {
    const document = {
      ...(SHIPPED_TARIFF_DOCUMENTS[0] as TariffDocument),
      product_name,
      version: "random",
      rules: rules.map((rule, index) => ({
        name: `rule ${index}`,
        ...(rule.priority === undefined ? {} : { priority: rule.priority }),
        conditions: rule.conditions,
        event: rule.event
      }))
    }
    return Result.getOrThrowWith(decodeTariff(document), (message) => new Error(message))
  })

describe("the compiled tariff against json-rules-engine", () => {
  it("fires the same rules and prices the same worksheet on the shipped tariffs (1 200 cases)", async () => {
    for (const tariff of shipped) {
      await fc.assert(
        fc.asyncProperty(request(tariff), (pricingRequest) => expectSameOutcome(tariff, pricingRequest)),
        { numRuns: 600 }
      )
    }
  })

  it("agrees on randomly generated tariffs (1 000 cases)", async () => {
    await fc.assert(
      fc.asyncProperty(
        randomTariff.chain((tariff) => fc.tuple(fc.constant(tariff), request(tariff))),
        ([tariff, pricingRequest]) => expectSameOutcome(tariff, pricingRequest)
      ),
      { numRuns: 1_000 }
    )
  })

  it("refuses, at load time, a rule it cannot evaluate exactly", () => {
    const tariff = Schema.decodeUnknownSync(Tariff)(SHIPPED_TARIFF_DOCUMENTS[0])
    const broken = {
      ...tariff,
      rules: [{ ...tariff.rules[0]!, conditions: { all: [{ fact: "variant", operator: "startsWith", value: "s" }] } }]
    } as unknown as Tariff
    expect(() => planOf(broken)).toThrow(TariffNotCompilable)
    expect(() => planOf(broken)).toThrow(/rule "standard: kasko": operator "startsWith" is not supported/)
  })
})

describe("a compiled condition", () => {
  const conditionFactValue = fc.oneof(
    fc.constantFrom("standard", "extended", "personbil", "godstransport", "premium", ""),
    fc.integer({ min: -5, max: 400_000 }),
    fc.constant(null)
  )
  const conditions = conditionTrees(conditionFactValue).topLevel
  const facts = fc.record(
    Object.fromEntries(FACT_NAMES.map((name) => [name, conditionFactValue]))
  ) as fc.Arbitrary<Facts>

  it("holds exactly when json-rules-engine fires its rule (1 500 cases)", async () => {
    await fc.assert(
      fc.asyncProperty(conditions, facts, async (condition, factValues) => {
        const engine = new Engine([{ name: "rule", conditions: condition as never, event: { type: "fired" } }])
        const { results } = await engine.run({ ...factValues })
        expect(compileCondition(condition as Condition)(factValues)).toBe(results.length === 1)
      }),
      { numRuns: 1500 }
    )
  })
})
