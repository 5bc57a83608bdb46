/**
 * The impact report as CSV: cells a policy id fills cannot be read as spreadsheet formulas. As text
 * and CSV: a target out of reach, said so, with why and the factor nearest it.
 */
import { csvParseRows } from "d3-dsv"
import { describe, expect, it } from "vitest"
import { ImpactAccumulator } from "../src/ImpactAccumulator.js"
import { impactPricer, type PortfolioRow, type TariffComparison } from "../src/ImpactPricing.js"
import { impactCsv, impactText } from "../src/ImpactReportText.js"
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

describe("a target out of reach, as text and as CSV", () => {
  it("says the target is unreachable and why, then the factor nearest it and what it gives", async () => {
    const book = generatedBook(40, 9)
    const rows: Array<PortfolioRow> = []
    forEachPortfolioRow(book.body, 2, portfolioColumns(headerFields(book.header)), (row) => rows.push(row))
    const result = await runImpact(comparison, { cap_increase_percent: 3 }, { percent: 10 }, async (pass) => {
      const accumulator = new ImpactAccumulator(pass.impact)
      const price = impactPricer(comparison)
      for (const row of rows) accumulator.add(price(row))
      return accumulator
    })
    const target = result.target!
    expect(target.reachable).toBe(false)
    const kroner = (value: number) => value.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, " ")
    const text = impactText(result)
    expect(text.slice(text.indexOf("\nTarget "))).toBe(
      `
Target +10.0000 % on the capped premium: unreachable: the caps bound the total to [0.00, ${kroner(target.bounds_kroner!.ceiling!)}] kr
  nearest it, a factor of ${target.factor} on the whole premium, the smallest that takes the total to its highest: ${kroner(target.achieved_kroner)} kr (+${target.achieved_change_percent!.toFixed(4)} %), −${kroner(-target.difference_kroner)} kr from the target of ${kroner(target.target_kroner)} kr
  uncapped with the factor: ${kroner(target.uncapped_kroner!)} kr
  no re-pricing: the book's own pass shows the target out of reach
`
    )
    const row = csvParseRows(impactCsv(result)).find((cells) => cells[0] === "target")!
    expect(row[11]).toBe(
      `unreachable: ${target.unreachable_reason}; nearest it, factor ${target.factor} on the capped premium; target ${target.target_kroner.toFixed(2)}; 0 re-pricings`
    )
  })
})
