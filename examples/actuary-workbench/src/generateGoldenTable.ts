#!/usr/bin/env node
/**
 * Writes golden/reference-tariff-v1.csv from the by-hand reference
 * implementation (never from the engine): `pnpm --filter
 * @kasko/example-actuary-workbench golden:generate`. Review the diff before
 * committing a regenerated table.
 */
import { formatGoldenTable, type GoldenCase } from "@kasko/workbench"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { GOLDEN_CASES } from "./goldenCases.js"
import { priceByHand, type HandCase } from "./ReferenceTariffByHand.js"

/** Whole years from a birth date to the pricing date, counted by hand. */
const ageOn = (birthDate: string, onDate: string) => {
  const [by, bm, bd] = birthDate.split("-").map(Number) as [number, number, number]
  const [oy, om, od] = onDate.split("-").map(Number) as [number, number, number]
  return oy - by - (om < bm || (om === bm && od < bd) ? 1 : 0)
}

const goldenRows: Array<GoldenCase> = GOLDEN_CASES.map((testCase) => {
  const parameters = testCase.parameters
  const age =
    parameters["youngest_user_age"] ??
    (parameters["youngest_user_birthdate"] === undefined
      ? undefined
      : String(ageOn(parameters["youngest_user_birthdate"], testCase.pricing_date)))
  const price = priceByHand({
    product_name: testCase.product_name as HandCase["product_name"],
    feature: testCase.feature as HandCase["feature"],
    policy_holder: parameters["policy_holder"] as HandCase["policy_holder"],
    vehicle_user: parameters["vehicle_user"] as HandCase["vehicle_user"],
    vehicle_type: parameters["vehicle_type"] as HandCase["vehicle_type"],
    vehicle_usage: parameters["vehicle_usage"]!,
    vehicle_price: Number(parameters["vehicle_price"]),
    driver_age: age === undefined ? undefined : Number(age)
  })
  return {
    ...testCase,
    expected: {
      annually: price.annually,
      monthly: price.monthly,
      premiums: Object.fromEntries(
        Object.entries(price.premiums).map(([coverage, ore]) => [coverage, (ore / 100).toFixed(2)])
      )
    }
  }
})

const file = join(import.meta.dirname, "..", "..", "golden", "reference-tariff-v1.csv")
writeFileSync(file, formatGoldenTable(goldenRows))
process.stdout.write(`wrote ${goldenRows.length} golden rows to ${file}\n`)
