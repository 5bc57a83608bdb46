/**
 * Solving for the factor that makes a book hit a target change: by re-pricing, on the whole premium
 * (each premium × the factor rounded to the øre) and on a coverage — and re-pricing with the factor found lands within one krone.
 */
import { Pricing, type Tariff } from "@kasko/core/actuarial"
import { describe, expect, it } from "vitest"
import { WEIGHT_SCALE } from "../src/CaseOutcome.js"
import { ImpactAccumulator } from "../src/ImpactAccumulator.js"
import { impactPricer, type PortfolioRow } from "../src/ImpactPricing.js"
import { runImpact } from "../src/ImpactRun.js"
import { forEachPortfolioRow, headerFields, portfolioColumns } from "../src/PortfolioCsv.js"
import { FACTOR_DENOMINATOR, factorText, linearFactor, solveMonotone, targetTotal } from "../src/TargetFactor.js"
import { generatedBook, leasingV1, PRICING_DATE, priceIndependently, rebalance, standaloneV1 } from "./support.js"

const ONE_KRONE = BigInt(100 * WEIGHT_SCALE)
const book = generatedBook(2_000, 4711)
const rows: Array<PortfolioRow> = []
forEachPortfolioRow(book.body, 2, portfolioColumns(headerFields(book.header)), (row) => rows.push(row))
const oldTariffs = [leasingV1, standaloneV1]
const newTariffs = [rebalance, standaloneV1]

/** Σ weight × øre (in øre × WEIGHT_SCALE) of the book priced independently, the new side by `priceNew`. */
const independentTotals = (
  priceNew?: (tariffs: ReadonlyArray<Tariff.Tariff>, request: Pricing.PricingRequest) => number
) => {
  const cases = priceIndependently(book.header, book.lines, oldTariffs, newTariffs, priceNew)
  const units = (amount: (entry: (typeof cases)[number]) => number) =>
    cases.reduce((sum, entry) => sum + BigInt(Math.round(entry.weight * WEIGHT_SCALE)) * BigInt(amount(entry)), 0n)
  return { old: units((entry) => entry.old_ore), new: units((entry) => entry.new_ore) }
}

/** The book's new total with the new tariffs' `coverage` scaled, through the impact pricer and accumulator. */
const totalWithScaling = (coverage: string, numerator: bigint): bigint => {
  const accumulator = new ImpactAccumulator({ top_movers: 0 })
  const price = impactPricer({
    old: oldTariffs,
    new: newTariffs,
    pricing_date: PRICING_DATE,
    scaling: { coverage, factor: { numerator, denominator: FACTOR_DENOMINATOR } }
  })
  for (const row of rows) accumulator.add(price(row))
  return accumulator.state().totals.new
}

describe("the factor that hits a target change", () => {
  const totals = independentTotals()

  it("on the whole premium, uncapped, is solved by re-pricing with each premium × the factor rounded to the øre, within one krone", async () => {
    // heavy weights make the per-policy roundings add up (as a large book's do): the linear factor misses
    const weighted = book.lines.map((line, index) => line.replace(/,1$/, `,${37 + (index % 29)}`))
    const cases = priceIndependently(book.header, weighted, oldTariffs, newTariffs)
    const weightedRows: Array<PortfolioRow> = []
    forEachPortfolioRow(`${weighted.join("\n")}\n`, 2, portfolioColumns(headerFields(book.header)), (row) =>
      weightedRows.push(row)
    )
    /** Σ weight × round_half_up(factor × new premium), each case priced by the plain pricing function. */
    const repricedTotal = (numerator: bigint) =>
      cases.reduce(
        (sum, entry) =>
          sum +
          BigInt(Math.round(entry.weight * WEIGHT_SCALE)) *
            ((2n * BigInt(entry.new_ore) * numerator + FACTOR_DENOMINATOR) / (2n * FACTOR_DENOMINATOR)),
        0n
      )
    const units = (amount: (entry: (typeof cases)[number]) => number) =>
      cases.reduce((sum, entry) => sum + BigInt(Math.round(entry.weight * WEIGHT_SCALE)) * BigInt(amount(entry)), 0n)
    const target = targetTotal(
      units((entry) => entry.old_ore),
      3
    )
    const wanted = (target.numerator + target.denominator / 2n) / target.denominator
    const missBy = (numerator: bigint) => {
      const difference = repricedTotal(numerator) - wanted
      return difference < 0n ? -difference : difference
    }
    // what makes the test worth having: on this book the linear factor is more than a krone off
    expect(
      missBy(
        linearFactor(
          units((entry) => entry.new_ore),
          target
        )
      )
    ).toBeGreaterThan(ONE_KRONE)
    const result = await runImpact(
      { old: oldTariffs, new: newTariffs, pricing_date: PRICING_DATE },
      {},
      { percent: 3 },
      async (pass) => {
        const accumulator = new ImpactAccumulator(pass.impact)
        const price = impactPricer({ old: oldTariffs, new: newTariffs, pricing_date: PRICING_DATE })
        for (const row of weightedRows) accumulator.add(price(row))
        return accumulator
      }
    )
    expect(result.target).toMatchObject({ on: "premium", applies_to: "premium", within_one_krone: true })
    expect(result.target!.passes).toBeGreaterThan(0)
    const [whole, fraction = ""] = result.target!.factor.split(".")
    expect(missBy(BigInt(whole! + fraction.padEnd(15, "0")))).toBeLessThanOrEqual(ONE_KRONE)
  })

  it("on one coverage's rates, is found by re-pricing, and re-pricing independently with it lands within one krone", async () => {
    const target = targetTotal(totals.old, 2.5)
    let passes = 0
    const solution = await solveMonotone({
      target,
      tolerance: ONE_KRONE,
      evaluate: async (numerator) => {
        passes++
        return totalWithScaling("kasko", numerator)
      },
      known: { numerator: FACTOR_DENOMINATOR, total: totals.new },
      first: linearFactor(totals.new, target)
    })
    expect(solution.hit).toBe(true)
    expect(solution.passes).toBe(passes)
    expect(passes).toBeLessThan(10)
    // the kasko rates must rise more than the whole premium would have to
    expect(solution.numerator).toBeGreaterThan(linearFactor(totals.new, target))
    const scaling = { coverage: "kasko", factor: { numerator: solution.numerator, denominator: FACTOR_DENOMINATOR } }
    const repriced = independentTotals(
      (tariffs, request) =>
        Pricing.priceWithScaling(
          tariffs.find((tariff) => tariff.product_name === request.product_name)!,
          request,
          scaling
        ).annual_total_ore
    )
    const wanted = (target.numerator + target.denominator / 2n) / target.denominator
    const difference = repriced.new - wanted
    expect(difference < 0n ? -difference : difference).toBeLessThanOrEqual(ONE_KRONE)
  })

  it("reports a target no factor reaches as missed, with the closest total found", async () => {
    // the vejhjælp line is a sliver of the book: even at factor 0 the book stays above a 20 % cut
    const target = targetTotal(totals.old, -20)
    const solution = await solveMonotone({
      target,
      tolerance: ONE_KRONE,
      evaluate: async (numerator) => totalWithScaling("vejhjælp", numerator),
      known: { numerator: FACTOR_DENOMINATOR, total: totals.new },
      first: linearFactor(totals.new, target)
    })
    expect(solution.hit).toBe(false)
    expect(solution.numerator).toBe(0n)
  })

  it("lands within the tolerance on a staircase, and stops when a step jumps over the target", async () => {
    // a total rising in steps of 1 000 per 10^12 of factor
    const staircase = async (numerator: bigint) => (numerator / 1_000_000_000_000n) * 1_000n
    const hit = await solveMonotone({
      target: { numerator: 5_000_400n, denominator: 1n },
      tolerance: 500n,
      evaluate: staircase,
      known: { numerator: FACTOR_DENOMINATOR, total: await staircase(FACTOR_DENOMINATOR) },
      first: 3n * FACTOR_DENOMINATOR
    })
    expect(hit).toMatchObject({ hit: true, total: 5_000_000n })
    const missed = await solveMonotone({
      target: { numerator: 5_000_500n, denominator: 1n },
      tolerance: 100n,
      evaluate: staircase,
      known: { numerator: FACTOR_DENOMINATOR, total: await staircase(FACTOR_DENOMINATOR) },
      first: 3n * FACTOR_DENOMINATOR
    })
    expect(missed.hit).toBe(false)
    expect([5_000_000n, 5_001_000n]).toContain(missed.total)
  })

  it("answers the closest point by its true residual, not the weight Illinois halved on a stale bracket end", async () => {
    // a total that jumps from 0 to 1 000 just above factor 1: every step lands above, the lower end (factor 1) goes stale
    const jump = FACTOR_DENOMINATOR + 5n
    const solution = await solveMonotone({
      target: { numerator: 380n, denominator: 1n },
      tolerance: 100n,
      evaluate: async (numerator) => (numerator >= jump ? 1_000n : 0n),
      known: { numerator: FACTOR_DENOMINATOR, total: 0n },
      first: 2n * FACTOR_DENOMINATOR
    })
    // 0 is 380 from the target and 1 000 is 620: neither is within 100, and 0 is the closer
    expect(solution).toMatchObject({ hit: false, total: 0n, numerator: FACTOR_DENOMINATOR })
  })

  it("writes the factor as an exact decimal", () => {
    expect(factorText(1_032_571_398_412_345n)).toBe("1.032571398412345")
    expect(factorText(2n * FACTOR_DENOMINATOR)).toBe("2")
    expect(factorText(FACTOR_DENOMINATOR / 4n)).toBe("0.25")
  })
})
