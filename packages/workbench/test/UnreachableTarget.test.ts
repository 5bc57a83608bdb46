/**
 * A target no factor reaches: beyond the caps' bounds (known from the book's own pass, with no
 * re-pricing for a factor on the whole premium), or beyond what a factor on a coverage can do. The
 * result says so and why, and gives the factor nearest the target beyond which moving it changes
 * nothing — checked here by re-pricing the book on both sides of it.
 */
import { describe, expect, it } from "vitest"
import type { CaseOutcome } from "../src/CaseOutcome.js"
import { ImpactAccumulator, type ImpactOptions } from "../src/ImpactAccumulator.js"
import { kronerOfUnits } from "../src/RunningTotals.js"
import { impactPricer, type PortfolioRow, type TariffComparison } from "../src/ImpactPricing.js"
import { type ImpactPass, type ImpactTarget, runImpact } from "../src/ImpactRun.js"
import { passPricer } from "../src/ImpactWorkerJob.js"
import { forEachPortfolioRow, headerFields, portfolioColumns } from "../src/PortfolioCsv.js"
import { FACTOR_DENOMINATOR } from "../src/TargetFactor.js"
import { generatedBook, leasingV1, PRICING_DATE, priceIndependently, rebalance, standaloneV1 } from "./support.js"

const comparison: TariffComparison = {
  old: [leasingV1, standaloneV1],
  new: [rebalance, standaloneV1],
  pricing_date: PRICING_DATE
}
const book = generatedBook(2_000, 4711)
const rows: Array<PortfolioRow> = []
forEachPortfolioRow(book.body, 2, portfolioColumns(headerFields(book.header)), (row) => rows.push(row))
const independent = priceIndependently(book.header, book.lines, comparison.old, comparison.new)

const halfUp = (numerator: number, denominator: number) => Math.floor((2 * numerator + denominator) / (2 * denominator))
/** Σ weight × amount in øre × WEIGHT_SCALE, apart from the accumulator (weights have two decimals here). */
const units = (amount: (entry: (typeof independent)[number]) => number) =>
  independent.reduce((sum, entry) => sum + BigInt(Math.round(entry.weight * 100)) * 100n * BigInt(amount(entry)), 0n)
const money = (units: bigint) =>
  kronerOfUnits(units)
    .toFixed(2)
    .replace(/\B(?=(\d{3})+(?!\d))/g, " ")

/** One pass over the book in this thread, as the workers run it. */
const accumulated = (pass: ImpactPass, cases: ReadonlyArray<PortfolioRow> = rows): ImpactAccumulator => {
  const accumulator = new ImpactAccumulator(pass.impact)
  const price = passPricer(comparison, pass)
  for (const row of cases) accumulator.add(price(row))
  return accumulator
}

/** The impact test with a target, and how many passes over the book it ran (the first is the report's). */
const solve = async (impact: ImpactOptions, target: ImpactTarget) => {
  let runs = 0
  const result = await runImpact(comparison, impact, target, async (pass) => {
    runs++
    return accumulated(pass)
  })
  return { target: result.target!, runs }
}

/** The capped total of the book with a factor (numerator over FACTOR_DENOMINATOR) on the whole premium or a coverage. */
const cappedWith = (impact: ImpactOptions, on: string, numerator: bigint): bigint =>
  accumulated(
    on === "premium"
      ? { impact: { ...impact, premium_factor: { numerator, denominator: FACTOR_DENOMINATOR } } }
      : { impact, scaling: { coverage: on, numerator } }
  ).state().totals.capped

const numeratorOf = (factor: string): bigint => {
  const [whole, fraction = ""] = factor.split(".")
  return BigInt(whole! + fraction.padEnd(15, "0"))
}

const caps = { cap_increase_percent: 10, cap_decrease_percent: 5 }
const floor = units((entry) => halfUp(entry.old_ore * 9_500, 10_000))
const ceiling = units((entry) => halfUp(entry.old_ore * 11_000, 10_000))
const capsReason = `the caps bound the total to [${money(floor)}, ${money(ceiling)}] kr`
const SIX_DECIMALS = 10n ** 9n

describe("a target beyond the caps' bounds", () => {
  it("on the whole premium: unreachable, found without re-pricing, at the smallest factor that takes every policy to its ceiling", async () => {
    const { target, runs } = await solve(caps, { percent: 25 })
    expect(runs).toBe(1)
    expect(target).toMatchObject({
      reachable: false,
      unreachable_reason: capsReason,
      bounds_kroner: { floor: kronerOfUnits(floor), ceiling: kronerOfUnits(ceiling) },
      achieved_kroner: kronerOfUnits(ceiling),
      within_one_krone: false,
      passes: 0
    })
    // re-priced: the factor gives the ceiling, one unit of its last decimal less does not
    const factor = numeratorOf(target.factor)
    expect(cappedWith(caps, "premium", factor)).toBe(ceiling)
    expect(cappedWith(caps, "premium", factor - 1n)).toBeLessThan(ceiling)
  })

  it("on the whole premium, below the floor: the largest factor that leaves every policy at its floor", async () => {
    const { target, runs } = await solve(caps, { percent: -12 })
    expect(runs).toBe(1)
    expect(target).toMatchObject({
      reachable: false,
      unreachable_reason: capsReason,
      achieved_kroner: kronerOfUnits(floor)
    })
    const factor = numeratorOf(target.factor)
    expect(cappedWith(caps, "premium", factor)).toBe(floor)
    expect(cappedWith(caps, "premium", factor + 1n)).toBeGreaterThan(floor)
  })

  it("on a coverage's rates: the smallest factor of six decimals from which the total stops rising", async () => {
    const { target, runs } = await solve(caps, { percent: 25, on: "kasko" })
    expect(target).toMatchObject({ reachable: false, unreachable_reason: capsReason })
    expect(target.passes).toBe(runs - 1)
    const factor = numeratorOf(target.factor)
    expect(factor % SIX_DECIMALS).toBe(0n)
    const limit = cappedWith(caps, "kasko", factor)
    expect(kronerOfUnits(limit)).toBe(target.achieved_kroner)
    expect(cappedWith(caps, "kasko", factor - SIX_DECIMALS)).toBeLessThan(limit)
    expect(cappedWith(caps, "kasko", 4n * factor)).toBe(limit)
  })

  it("on a coverage's rates, below the floor: the largest factor of six decimals at the total a factor of 0 gives", async () => {
    const { target } = await solve(caps, { percent: -12, on: "kasko" })
    expect(target).toMatchObject({ reachable: false, unreachable_reason: capsReason })
    const factor = numeratorOf(target.factor)
    const lowest = cappedWith(caps, "kasko", 0n)
    expect(kronerOfUnits(lowest)).toBe(target.achieved_kroner)
    expect(cappedWith(caps, "kasko", factor)).toBe(lowest)
    expect(cappedWith(caps, "kasko", factor + SIX_DECIMALS)).toBeGreaterThan(lowest)
  })

  it("is solved as before within the bounds, and says it is reachable", async () => {
    const { target } = await solve(caps, { percent: 6 })
    expect(target).toMatchObject({ reachable: true, within_one_krone: true })
    expect(target.unreachable_reason).toBeUndefined()
  })
})

describe("a target beyond what the factor can do, without caps", () => {
  it("on a coverage too small to move the total that far: even a factor of 0 leaves it above the target", async () => {
    const { target } = await solve({}, { percent: -20, on: "vejhjælp" })
    const atZero = cappedWith({}, "vejhjælp", 0n)
    expect(target).toMatchObject({
      reachable: false,
      unreachable_reason: `even a factor of 0 on the rates of vejhjælp leaves the total at ${money(atZero)} kr`,
      achieved_kroner: kronerOfUnits(atZero)
    })
    expect(target.bounds_kroner).toBeUndefined()
    const factor = numeratorOf(target.factor)
    expect(cappedWith({}, "vejhjælp", factor)).toBe(atZero)
    expect(cappedWith({}, "vejhjælp", factor + SIX_DECIMALS)).toBeGreaterThan(atZero)
  })

  it("on the whole premium of a book the new version prices at 0 kr: no factor moves it", async () => {
    const zeroed = (outcome: CaseOutcome): CaseOutcome =>
      outcome.kind === "priced" ? { ...outcome, new: { ...outcome.new, annual_total_ore: 0 } } : outcome
    const runWith = (impact: ImpactOptions, target: ImpactTarget, price: (row: PortfolioRow) => CaseOutcome) =>
      runImpact(comparison, { ...impact, top_movers: 0 }, target, async (pass) => {
        const accumulator = new ImpactAccumulator(pass.impact)
        for (const row of rows) accumulator.add(price(row))
        return accumulator
      })
    const price = impactPricer(comparison)
    const everyPolicy = await runWith({}, { percent: 1 }, (row) => zeroed(price(row)))
    expect(everyPolicy.target).toMatchObject({
      reachable: false,
      unreachable_reason: "the new version prices every policy at 0 kr, which no factor on the whole premium moves",
      factor: "0",
      achieved_kroner: 0,
      passes: 0
    })
    // capped, one policy priced at 0 stays at its floor: the total never reaches the caps' ceiling
    const firstCase = independent[0]!
    const highest =
      ceiling -
      BigInt(Math.round(firstCase.weight * 10_000)) *
        BigInt(halfUp(firstCase.old_ore * 11_000, 10_000) - halfUp(firstCase.old_ore * 9_500, 10_000))
    // a target between that highest total and the ceiling
    const between = Number(highest + (ceiling - highest) / 2n) / Number(units((entry) => entry.old_ore))
    const onePolicy = await runWith(caps, { percent: Math.round((between - 1) * 1_000_000) / 10_000 }, (row) =>
      row === rows[0] ? zeroed(price(row)) : price(row)
    )
    expect(onePolicy.target).toMatchObject({
      reachable: false,
      unreachable_reason: `no factor on the whole premium takes the capped total above ${money(highest)} kr: the policies the new version prices at 0 kr stay at their floor`,
      achieved_kroner: kronerOfUnits(highest),
      passes: 0
    })
  })
})
