/** explain_price's lines: every coverage and charge in words, summing to the annual total the price is rounded from. */
import { Examples, ProductCatalogue, QuotingService, TariffBook } from "@kasko/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { explanationOf, explanationText } from "../src/PriceExplanation.js"

const worksheetOf = (parameters: Record<string, string>) =>
  Effect.runPromise(
    QuotingService.explainPrice(Examples.offerRequest(Examples.standardParameters(parameters))).pipe(
      Effect.provide(TariffBook.shipped)
    )
  )

describe("a price's explanation", () => {
  it("has a line per coverage and charge, whose amounts sum to the total that rounds to the price", async () => {
    const worksheet = await worksheetOf({
      vehicle_usage: "godstransport",
      youngest_user_age: "22",
      vehicle_price: "400000"
    })
    const explanation = explanationOf(worksheet, ProductCatalogue.shipped)
    expect(explanation.lines).toHaveLength(worksheet.coverage_lines.length + worksheet.charge_lines.length)
    const sum = explanation.lines.reduce((total, line) => total + line.amount_ore, 0)
    expect(sum).toBe(explanation.annual_total_ore)
    expect(Math.floor((sum + 50) / 100)).toBe(explanation.annually)
    expect(explanation.variant).toBe("extended")
  })

  it("says each line in words: the coverage's title, its base, each loading, its amount and deductible", async () => {
    const worksheet = await worksheetOf({
      vehicle_usage: "godstransport",
      youngest_user_age: "22",
      vehicle_price: "400000"
    })
    const kasko = explanationOf(worksheet, ProductCatalogue.shipped).lines.find((line) => line.name === "kasko")!
    expect(kasko.words).toBe(
      "Kasko: 2.40 % of 300000 kr + 1.50 % of 100000 kr, +30 % for youngest driver 21–24, +25 % for vehicle_usage godstransport = 14137.50 kr (deductible 10000.00 kr)"
    )
    expect(kasko.loadings).toEqual([
      { loading: "youngest driver 21–24", percent: 30 },
      { loading: "vehicle_usage godstransport", percent: 25 }
    ])
    const text = explanationText(explanationOf(worksheet, ProductCatalogue.shipped))
    expect(text).toContain("- Kasko: 2.40 %")
    expect(text).toContain("20495.61 kr rounded half up to whole kroner = 20496 kr")
  })
})
