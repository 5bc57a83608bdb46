/** The form's pricing: the same worksheets as the workbench's `priceCase`, and the Schema's messages by field. */
import { TariffDocuments } from "@kasko/core/actuarial"
import { parseGoldenTable, priceCase } from "@kasko/workbench/browser"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { IN_FORCE, parameterDefinitionsOf, sampleCase, type CaseInput } from "../src/model/CaseInput.js"
import { priceCaseInput } from "../src/model/CasePrice.js"

const golden = parseGoldenTable(
  readFileSync(
    join(import.meta.dirname, "..", "..", "..", "examples", "actuary-workbench", "golden", "reference-tariff-v1.csv"),
    "utf8"
  )
)
const tariffs = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)

describe("pricing the form's case", () => {
  it.each(golden.map((row) => [row.name, row] as const))(
    "prices golden case %s to priceCase's worksheet",
    async (_name, row) => {
      const input: CaseInput = {
        product_name: row.product_name,
        feature: row.feature,
        tariff: IN_FORCE,
        pricing_date: row.pricing_date,
        parameters: Object.fromEntries(
          parameterDefinitionsOf(row.product_name).map((definition) => [
            definition.name,
            row.parameters[definition.name] ?? ""
          ])
        )
      }
      expect(priceCaseInput(input, tariffs)).toEqual({ _tag: "Priced", worksheet: await priceCase(row, tariffs) })
    }
  )

  it("gives each violation to its field, with the offer Schema's message", () => {
    const input = sampleCase("2026-03-02")
    const price = priceCaseInput(
      { ...input, parameters: { ...input.parameters, vehicle_price: "12", policy_holder: "" } },
      tariffs
    )
    expect(price).toEqual({
      _tag: "Rejected",
      violations: expect.arrayContaining([
        { field: "vehicle_price", message: "must be between 1000 and 10000000" },
        { field: "policy_holder", message: "is required" }
      ])
    })
  })

  it("rejects a pricing date that is no date, and a date before any version", () => {
    const input = sampleCase("2026-03-02")
    expect(priceCaseInput({ ...input, pricing_date: "" }, tariffs)).toMatchObject({
      _tag: "Rejected",
      violations: [{ field: "pricing_date" }]
    })
    // before the product's first version, the product is not sold: the engine says so before it asks for a tariff
    expect(priceCaseInput({ ...input, pricing_date: "1999-01-01" }, tariffs)).toMatchObject({
      _tag: "Rejected",
      violations: [
        { field: "product.product_name", message: "is not sold before 2025-01-01, when its first version takes effect" }
      ]
    })
  })
})
