/** The synchronous evaluator agrees with json-rules-engine on generated conditions and facts. */
import fc from "fast-check"
import { Engine } from "json-rules-engine"
import { describe, expect, it } from "vitest"
import type { Condition } from "../src/Tariff.js"
import { OPERATORS, FACT_NAMES } from "../src/Tariff.js"
import { conditionHolds, type Facts } from "../src/TariffConditions.js"

const factValue = fc.oneof(fc.constantFrom("standard", "extended", "personbil", "godstransport", "premium", ""), fc.integer({ min: -5, max: 400_000 }), fc.constant(null))
const leaf = fc.oneof(
  fc.record({ fact: fc.constantFrom(...FACT_NAMES), operator: fc.constantFrom("in" as const, "notIn" as const), value: fc.array(factValue, { maxLength: 4 }) }),
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
