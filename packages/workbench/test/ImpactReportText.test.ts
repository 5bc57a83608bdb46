/** The impact report as CSV: cells a policy id fills cannot be read as spreadsheet formulas. */
import { csvParseRows } from "d3-dsv"
import { describe, expect, it } from "vitest"
import { ImpactAccumulator } from "../src/ImpactAccumulator.js"
import { impactPricer, type PortfolioRow, type TariffComparison } from "../src/ImpactPricing.js"
import { impactCsv } from "../src/ImpactReportText.js"
import { runImpact } from "../src/ImpactRun.js"
import { forEachPortfolioRow, headerFields, portfolioColumns } from "../src/PortfolioCsv.js"
import { generatedBook, leasingV1, PRICING_DATE, rebalance, standaloneV1 } from "./support.js"

const comparison: TariffComparison = {
  old: [leasingV1, standaloneV1],
  new: [rebalance, standaloneV1],
  pricing_date: PRICING_DATE
}

describe("the impact report as CSV", () => {
  it("prefixes with ' a policy id starting with = + - @, a tab or a CR, and leaves others alone", async () => {
    const book = generatedBook(40, 9)
    const rows: Array<PortfolioRow> = []
    forEachPortfolioRow(book.body, 2, portfolioColumns(headerFields(book.header)), (row) => rows.push(row))
    const hostile = ['=HYPERLINK("http://127.0.0.1/")', "+1+2", "-3", "@SUM(A1)", "\tTAB", "\rCR", "P-plain"]
    const named = rows.map((row, index) => ({ ...row, policy_id: hostile[index % hostile.length]! }))
    const result = await runImpact(comparison, { top_movers: 40 }, undefined, async (pass) => {
      const accumulator = new ImpactAccumulator(pass.impact)
      const price = impactPricer(comparison)
      for (const row of named) accumulator.add(price(row))
      return accumulator
    })
    const moverIds = csvParseRows(impactCsv(result))
      .filter((cells) => cells[0] === "increase" || cells[0] === "decrease")
      .map((cells) => cells[1]!)
    expect(moverIds.length).toBeGreaterThan(hostile.length)
    expect(new Set(moverIds)).toEqual(
      new Set(['\'=HYPERLINK("http://127.0.0.1/")', "'+1+2", "'-3", "'@SUM(A1)", "'\tTAB", "'\rCR", "P-plain"])
    )
  })
})
