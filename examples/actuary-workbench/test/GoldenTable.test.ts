/**
 * The golden table (generated from the by-hand reference implementation)
 * against the engine and the shipped tariff. A failing row prints the case,
 * the expected and actual figures, and the rating worksheet.
 */
import { TariffDocuments } from "@kasko/core/actuarial"
import { actualPrice, parseGoldenTable, priceCase, worksheetTable } from "@kasko/workbench"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const GOLDEN = join(import.meta.dirname, "..", "golden", "reference-tariff-v1.csv")
const cases = parseGoldenTable(readFileSync(GOLDEN, "utf8"))
const tariffs = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)

describe("the golden table of the reference tariff v1", () => {
  it("has at least 40 rows across both products, both variants and both features", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40)
    expect(new Set(cases.map((testCase) => testCase.product_name))).toEqual(
      new Set(["insurance-car-leasing", "insurance-car-standalone"])
    )
    expect(new Set(cases.map((testCase) => testCase.feature))).toEqual(new Set(["standard", "premium"]))
    expect(cases.every((testCase) => testCase.expected !== undefined)).toBe(true)
  })

  it.each(cases.map((testCase) => [testCase.name, testCase] as const))(
    "prices %s as the table says",
    async (_name, testCase) => {
      const worksheet = await priceCase(testCase, tariffs)
      const actual = actualPrice(worksheet)
      const report = [
        `case ${testCase.name} (${testCase.product_name}, ${testCase.feature}, ${testCase.pricing_date})`,
        `parameters ${JSON.stringify(testCase.parameters)}`,
        `expected ${JSON.stringify(testCase.expected)}`,
        `actual   ${JSON.stringify(actual)}`,
        worksheetTable(worksheet)
      ].join("\n")
      expect(actual, report).toEqual(testCase.expected)
    }
  )
})
