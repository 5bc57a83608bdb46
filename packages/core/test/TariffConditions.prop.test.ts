/** The synchronous evaluator agrees with json-rules-engine on generated conditions and facts. */
import fc from "fast-check"
import { Engine } from "json-rules-engine"
import { describe, expect, it } from "vitest"
import { FACT_NAMES, type Condition } from "../src/Tariff.js"
import { conditionTrees } from "./arbitraries.js"
import { conditionHolds, type Facts } from "../src/TariffConditions.js"

const factValue = fc.oneof(fc.constantFrom("standard", "extended", "personbil", "godstransport", "premium", ""), fc.integer({ min: -5, max: 400_000 }), fc.constant(null))
const { topLevel } = conditionTrees(factValue)
const facts = fc.record(Object.fromEntries(FACT_NAMES.map((name) => [name, factValue]))) as fc.Arbitrary<Facts>

describe("conditionHolds", () => {
  it("agrees with json-rules-engine", async () => {
    await fc.assert(
      fc.asyncProperty(topLevel, facts, async (conditions, factValues) => {
        const engine = new Engine([{ name: "rule", conditions: conditions as never, event: { type: "fired" } }])
        const { results } = await engine.run({ ...factValues })
        expect(conditionHolds(conditions as Condition, factValues)).toBe(results.length === 1)
      }),
      { numRuns: 1500 }
    )
  })
})
