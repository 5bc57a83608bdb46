/**
 * `portfolioImpact` on worker threads: the same report as one accumulator in this thread, figures
 * that agree with the plain pricing function, the target's factor re-priced independently, and a
 * malformed file named by its line however it is cut into chunks.
 */
import { Pricing, type Tariff } from "@kasko/core/actuarial"
import { type ImpactResult, portfolioImpact, runImpact } from "@kasko/workbench"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { WEIGHT_SCALE } from "../src/CaseOutcome.js"
import { ImpactAccumulator } from "../src/ImpactAccumulator.js"
import { impactPricer, type PortfolioRow, type TariffComparison } from "../src/ImpactPricing.js"
import { passPricer } from "../src/ImpactWorkerJob.js"
import { forEachPortfolioRow, headerFields, PortfolioFormatError, portfolioColumns } from "../src/PortfolioCsv.js"
import {
  generatedBook,
  leasingV1,
  PRICING_DATE,
  priceIndependently,
  rebalance,
  standaloneV1,
  weightedKroner
} from "./support.js"

const directory = mkdtempSync(join(tmpdir(), "kasko-impact-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const book = generatedBook(4_000, 32)
const file = join(directory, "book.csv")
writeFileSync(file, `${book.header}\n${book.body}`)
const comparison: TariffComparison = {
  old: [leasingV1, standaloneV1],
  new: [rebalance, standaloneV1],
  pricing_date: PRICING_DATE
}
const rows: Array<PortfolioRow> = []
forEachPortfolioRow(book.body, 2, portfolioColumns(headerFields(book.header)), (row) => rows.push(row))
const independent = priceIndependently(book.header, book.lines, comparison.old, comparison.new)

/** The same test in this thread: one accumulator, every pass over the rows in order. */
const inThisThread = (impact = {}, target?: { percent: number; on?: string }): Promise<ImpactResult> =>
  runImpact(comparison, impact, target, async (pass) => {
    const accumulator = new ImpactAccumulator(pass.impact)
    const price = passPricer(comparison, pass)
    for (const row of rows) accumulator.add(price(row))
    return accumulator
  })

describe("an impact test on worker threads", () => {
  it("reports what one accumulator in this thread reports, the file cut into many small chunks", async () => {
    const impact = { cap_increase_percent: 8, cap_decrease_percent: 4 }
    const onWorkers = await portfolioImpact({
      ...comparison,
      portfolio: { file },
      impact,
      workers: 2,
      chunk_bytes: 8 * 1024
    })
    expect(onWorkers).toEqual(await inThisThread(impact))
    expect(onWorkers.compared).toEqual([
      { product_name: "insurance-car-leasing", old_version: "v1", new_version: "v2-rebalance" },
      { product_name: "insurance-car-standalone", old_version: "v1", new_version: "v1" }
    ])
    expect(onWorkers.report.totals.policies).toBe(4_000)
    expect(onWorkers.report.totals.old_kroner).toBe(weightedKroner(independent, (entry) => entry.old_ore))
    expect(onWorkers.report.totals.new_kroner).toBe(weightedKroner(independent, (entry) => entry.new_ore))
  })

  it("prices on the new side's effective_from unless told", async () => {
    const result = await portfolioImpact({ old: comparison.old, new: comparison.new, portfolio: { file }, workers: 1 })
    expect(result.pricing_date).toBe("2027-01-01")
    expect(result.report.totals.new_kroner).toBe(weightedKroner(independent, (entry) => entry.new_ore))
  })

  it("reads rows from a source of pages as from a file", async () => {
    const pages = async function* () {
      for (let start = 0; start < rows.length; start += 700) yield rows.slice(start, start + 700)
    }
    const fromRows = await portfolioImpact({ ...comparison, portfolio: { rows: pages }, workers: 2 })
    expect(fromRows.report).toEqual((await inThisThread()).report)
  })

  it("solves for a factor on kasko's rates that makes the capped book hit +3 %, and re-pricing with it lands within one krone", async () => {
    const result = await portfolioImpact({
      ...comparison,
      portfolio: { file },
      impact: { cap_increase_percent: 8 },
      target: { percent: 3, on: "kasko" },
      workers: 2,
      chunk_bytes: 64 * 1024
    })
    const target = result.target!
    expect(target).toMatchObject({ on: "kasko", applies_to: "capped premium", within_one_krone: true })
    expect(target.passes).toBeGreaterThan(0)
    // re-priced apart from the impact code: each case under the new tariffs with kasko scaled, capped at +8 %
    const [whole, fraction = ""] = target.factor.split(".")
    const scaling = {
      coverage: "kasko",
      factor: { numerator: BigInt(whole! + fraction.padEnd(15, "0")), denominator: 10n ** 15n }
    }
    const repriced = priceIndependently(
      book.header,
      book.lines,
      comparison.old,
      comparison.new,
      (tariffs: ReadonlyArray<Tariff.Tariff>, request: Pricing.PricingRequest) =>
        Pricing.priceWithScaling(
          tariffs.find((tariff) => tariff.product_name === request.product_name)!,
          request,
          scaling
        ).annual_total_ore
    )
    const cappedUnits = repriced.reduce((sum, entry) => {
      const ceiling = Math.floor((2 * entry.old_ore * 10_800 + 10_000) / 20_000)
      return sum + BigInt(Math.round(entry.weight * WEIGHT_SCALE)) * BigInt(Math.min(entry.new_ore, ceiling))
    }, 0n)
    const oldUnits = repriced.reduce(
      (sum, entry) => sum + BigInt(Math.round(entry.weight * WEIGHT_SCALE)) * BigInt(entry.old_ore),
      0n
    )
    const wanted = (oldUnits * 103n + 50n) / 100n
    const difference = cappedUnits - wanted
    expect(difference < 0n ? -difference : difference).toBeLessThanOrEqual(BigInt(100 * WEIGHT_SCALE))
  })

  it("solves the factor on the whole premium by re-pricing, and each premium × it rounded to the øre lands within one krone", async () => {
    // heavy weights, so that the per-policy roundings add up to more than a krone
    const weightedLines = book.lines.map((line, index) => line.replace(/,1$/, `,${41 + (index % 23)}`))
    const weightedFile = join(directory, "weighted.csv")
    writeFileSync(weightedFile, `${book.header}\n${weightedLines.join("\n")}\n`)
    const result = await portfolioImpact({
      ...comparison,
      portfolio: { file: weightedFile },
      target: { percent: -1.5 },
      workers: 2
    })
    expect(result.target).toMatchObject({ on: "premium", applies_to: "premium", within_one_krone: true })
    expect(result.target!.passes).toBeGreaterThan(0)
    // re-priced apart from the impact code: Σ weight × round_half_up(factor × the plain pricing function's premium)
    const [whole, fraction = ""] = result.target!.factor.split(".")
    const numerator = BigInt(whole! + fraction.padEnd(15, "0"))
    const cases = priceIndependently(book.header, weightedLines, comparison.old, comparison.new)
    const units = (entry: (typeof cases)[number]) => BigInt(Math.round(entry.weight * WEIGHT_SCALE))
    const repriced = cases.reduce(
      (sum, entry) => sum + units(entry) * ((2n * BigInt(entry.new_ore) * numerator + 10n ** 15n) / (2n * 10n ** 15n)),
      0n
    )
    const oldUnits = cases.reduce((sum, entry) => sum + units(entry) * BigInt(entry.old_ore), 0n)
    const wanted = (oldUnits * 985n + 500n) / 1000n
    const difference = repriced - wanted
    expect(difference < 0n ? -difference : difference).toBeLessThanOrEqual(BigInt(100 * WEIGHT_SCALE))
  })

  it("prices a blank feature cell as the standard feature", () => {
    const price = impactPricer(comparison)
    const standard = rows.find((row) => row.feature === "standard")!
    const blank = price({ ...standard, feature: "" })
    expect(blank.kind).toBe("priced")
    expect(blank).toEqual(price(standard))
  })

  it("refuses a factor on a coverage no rule of the new version adds", async () => {
    await expect(
      portfolioImpact({ ...comparison, portfolio: { file }, target: { percent: 1, on: "glasskade" }, workers: 1 })
    ).rejects.toThrow('no rule of the new version adds the coverage "glasskade"')
  })

  it("names the line of a malformed case, far into the file, whichever worker meets it", async () => {
    const lines = [...book.lines]
    lines[3_210] = "P9,insurance-car-leasing,standard"
    const broken = join(directory, "broken.csv")
    writeFileSync(broken, `${book.header}\n${lines.join("\n")}\n`)
    await expect(
      portfolioImpact({ ...comparison, portfolio: { file: broken }, workers: 2, chunk_bytes: 4 * 1024 })
    ).rejects.toThrow(new PortfolioFormatError(3_212, "has 3 fields, the header 13"))
  })

  it("counts lines across quoted line breaks and chunk ends", async () => {
    const quoted = [...book.lines]
    for (const index of [10, 500, 2_000]) quoted[index] = quoted[index]!.replace(/^P(\d+),/, '"P$1\nsecond line",')
    quoted[3_000] = "P9,insurance-car-leasing,standard"
    const withBreaks = join(directory, "quoted.csv")
    writeFileSync(withBreaks, `${book.header}\n${quoted.join("\n")}\n`)
    // three quoted fields each add a line before the broken case
    await expect(
      portfolioImpact({ ...comparison, portfolio: { file: withBreaks }, workers: 2, chunk_bytes: 2 * 1024 })
    ).rejects.toThrow(new PortfolioFormatError(3_005, "has 3 fields, the header 13"))
  })

  it("says a file with no header line is empty", async () => {
    const empty = join(directory, "empty.csv")
    writeFileSync(empty, "")
    await expect(portfolioImpact({ ...comparison, portfolio: { file: empty }, workers: 1 })).rejects.toThrow(
      "line 1: the file is empty"
    )
  })
})
