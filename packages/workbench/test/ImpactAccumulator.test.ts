/**
 * The impact figures of a generated book against the book priced independently (the plain pricing
 * function, case by case); merging partial results; capping; rejections and malformed files.
 */
import { describe, expect, it } from "vitest"
import { ImpactAccumulator } from "../src/ImpactAccumulator.js"
import type { ImpactReport } from "../src/ImpactReport.js"
import { impactPricer, type PortfolioRow, type TariffComparison } from "../src/ImpactPricing.js"
import { lineBreaks, wholeRowsEnd } from "../src/CsvRows.js"
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

const comparison: TariffComparison = {
  old: [leasingV1, standaloneV1],
  new: [rebalance, standaloneV1],
  pricing_date: PRICING_DATE
}
const book = generatedBook(3_000, 20261201)
const independent = priceIndependently(book.header, book.lines, comparison.old, comparison.new)

/** The rows of CSV text (after its header line). */
const rowsOf = (header: string, body: string, firstLine = 2): Array<PortfolioRow> => {
  const rows: Array<PortfolioRow> = []
  forEachPortfolioRow(body, firstLine, portfolioColumns(headerFields(header)), (row) => rows.push(row))
  return rows
}

const reportOf = (rows: ReadonlyArray<PortfolioRow>, options = {}): ImpactReport => {
  const accumulator = new ImpactAccumulator(options)
  const price = impactPricer(comparison)
  for (const row of rows) accumulator.add(price(row))
  return accumulator.finish()
}

const rows = rowsOf(book.header, book.body)

describe("the impact of a tariff change on a generated book", () => {
  const report = reportOf(rows, { top_movers: 5 })

  it("totals what the plain pricing function gives case by case, weighted", () => {
    expect(report.totals.policies).toBe(independent.length)
    expect(report.totals.old_kroner).toBe(weightedKroner(independent, (entry) => entry.old_ore))
    expect(report.totals.new_kroner).toBe(weightedKroner(independent, (entry) => entry.new_ore))
    expect(report.totals.exposure).toBeCloseTo(
      independent.reduce((sum, entry) => sum + entry.weight, 0),
      6
    )
    const moved = independent.filter((entry) => entry.new_ore !== entry.old_ore)
    expect(report.totals.affected).toBe(moved.length)
    expect(report.totals.increased).toBe(moved.filter((entry) => entry.new_ore > entry.old_ore).length)
    expect(report.totals.decreased).toBe(moved.filter((entry) => entry.new_ore < entry.old_ore).length)
    // the rebalance moves premiums both ways, and leaves the standalone product alone
    expect(report.totals.increased).toBeGreaterThan(100)
    expect(report.totals.decreased).toBeGreaterThan(100)
  })

  it("breaks the totals down by segment as the independent pricing does", () => {
    for (const product of ["insurance-car-leasing", "insurance-car-standalone"]) {
      const cases = independent.filter((entry) => entry.product_name === product)
      expect(report.segments.product.find((row) => row.segment === product)).toMatchObject({
        policies: cases.length,
        old_kroner: weightedKroner(cases, (entry) => entry.old_ore),
        new_kroner: weightedKroner(cases, (entry) => entry.new_ore)
      })
    }
    expect(report.segments.product.find((row) => row.segment === "insurance-car-standalone")!.affected).toBe(0)
    for (const variant of ["standard", "extended"]) {
      const cases = independent.filter((entry) => entry.variant === variant)
      expect(report.segments.variant.find((row) => row.segment === variant)!.new_kroner).toBe(
        weightedKroner(cases, (entry) => entry.new_ore)
      )
    }
    for (const dimension of Object.values(report.segments))
      expect(dimension.reduce((sum, row) => sum + row.policies, 0)).toBe(independent.length)
  })

  it("counts each policy in the band of its change per cent", () => {
    const percent = (entry: (typeof independent)[number]) => ((entry.new_ore - entry.old_ore) / entry.old_ore) * 100
    const expected = (from: number | null, to: number | null) =>
      independent.filter((entry) => {
        if (entry.new_ore === entry.old_ore) return from === 0 && to === 0
        return (from === null || percent(entry) >= from) && (to === null || percent(entry) < to)
      }).length
    expect(report.bands.map((band) => band.band)).toEqual([
      "under −20 %",
      "−20 % to −10 %",
      "−10 % to −5 %",
      "−5 % to −2 %",
      "−2 % to 0 %",
      "0 % to +2 %",
      "+2 % to +5 %",
      "+5 % to +10 %",
      "+10 % to +20 %",
      "+20 % and over",
      "unchanged"
    ])
    for (const band of report.bands) expect(band.policies, band.band).toBe(expected(band.from_percent, band.to_percent))
    // each row's change is its printed after less its printed before, to the øre
    for (const row of [report.totals, ...report.bands, ...Object.values(report.segments).flat()])
      expect(Math.round(row.change_kroner * 100)).toBe(
        Math.round(row.new_kroner * 100) - Math.round(row.old_kroner * 100)
      )
    expect(report.bands.reduce((sum, band) => sum + band.policies, 0)).toBe(independent.length)
  })

  it("lists the largest movers each way, with the worksheet lines that moved them", () => {
    const byChange = [...independent].sort(
      (a, b) => Math.abs(b.new_ore - b.old_ore) - Math.abs(a.new_ore - a.old_ore) || a.line - b.line
    )
    const increases = byChange.filter((entry) => entry.new_ore > entry.old_ore).slice(0, 5)
    const decreases = byChange.filter((entry) => entry.new_ore < entry.old_ore).slice(0, 5)
    expect(report.movers.increases.map((mover) => mover.line)).toEqual(increases.map((entry) => entry.line))
    expect(report.movers.decreases.map((mover) => mover.line)).toEqual(decreases.map((entry) => entry.line))
    for (const mover of [...report.movers.increases, ...report.movers.decreases]) {
      // the moved lines account for the whole change
      const moved = mover.moved_lines.reduce((sum, line) => sum + (line.new_kroner ?? 0) - (line.old_kroner ?? 0), 0)
      expect(moved).toBeCloseTo(mover.change_kroner, 2)
      expect(mover.moved_lines.map((line) => line.item)).toContain("kasko")
    }
    const top = report.movers.increases[0]!
    expect(top.moved_lines.find((line) => line.item === "kasko")!.new_explanation).toMatch(/% of \d+ kr/)
  })

  it("keeps the earliest lines among movers that move alike, whatever order they arrive in", () => {
    const price = impactPricer(comparison)
    const moving = rows.find((row) => {
      const outcome = price(row)
      return outcome.kind === "priced" && outcome.new.annual_total_ore > outcome.old.annual_total_ore
    })!
    const copies = [7, 3, 11, 0, 9, 5, 1, 10, 2, 8, 6, 4].map((offset) => ({ ...moving, line: 100 + offset }))
    const [first, second] = [new ImpactAccumulator({ top_movers: 5 }), new ImpactAccumulator({ top_movers: 5 })]
    for (const [index, row] of copies.entries()) (index % 2 === 0 ? first : second).add(price(row))
    const merged = new ImpactAccumulator({ top_movers: 5 })
    merged.merge(second.state())
    merged.merge(first.state())
    expect(merged.finish().movers.increases.map((mover) => mover.line)).toEqual([100, 101, 102, 103, 104])
  })

  it("gives the same report however the book is split between accumulators", () => {
    const price = impactPricer(comparison)
    const parts = [0, 1, 2].map(() => new ImpactAccumulator({ top_movers: 5 }))
    // an uneven, interleaved split, as chunks land on workers
    for (const [index, row] of rows.entries())
      parts[(index * 7) % 3 === 0 ? 0 : index % 2 === 0 ? 1 : 2]!.add(price(row))
    const merged = new ImpactAccumulator({ top_movers: 5 })
    for (const part of [parts[2]!, parts[0]!, parts[1]!]) merged.merge(part.state())
    expect(merged.finish()).toEqual(report)
  })
})

describe("capping individual changes", () => {
  const caps = { cap_increase_percent: 5, cap_decrease_percent: 2.5 }
  const report = reportOf(rows, caps)
  const halfUp = (numerator: number, denominator: number) =>
    Math.floor((2 * numerator + denominator) / (2 * denominator))
  const capped = (entry: (typeof independent)[number]) =>
    Math.max(halfUp(entry.old_ore * 9_750, 10_000), Math.min(entry.new_ore, halfUp(entry.old_ore * 10_500, 10_000)))

  it("holds each policy within the caps around its old premium, and totals the capped premiums beside the uncapped", () => {
    expect(report.totals.capped_kroner).toBe(weightedKroner(independent, capped))
    expect(report.totals.new_kroner).toBe(weightedKroner(independent, (entry) => entry.new_ore))
    expect(report.caps).toEqual({
      increase_percent: 5,
      decrease_percent: 2.5,
      capped_increases: independent.filter((entry) => entry.new_ore > halfUp(entry.old_ore * 10_500, 10_000)).length,
      capped_decreases: independent.filter((entry) => entry.new_ore < halfUp(entry.old_ore * 9_750, 10_000)).length
    })
    expect(report.caps!.capped_increases).toBeGreaterThan(0)
    expect(report.caps!.capped_decreases).toBeGreaterThan(0)
    expect(report.totals.capped_kroner!).toBeLessThan(report.totals.new_kroner)
  })

  it("caps a worked case: 8 000 kr → 9 000 kr capped at +5 % is 8 400 kr; 8 000 kr → 7 000 kr at −2.5 % is 7 800 kr", () => {
    const accumulator = new ImpactAccumulator(caps)
    const price = impactPricer(comparison)
    const priced = price(rows[0]!)
    if (priced.kind !== "priced") throw new Error("the first generated case is valid")
    const at = (before: number, after: number) => ({
      ...priced,
      old: { ...priced.old, annual_total_ore: before },
      new: { ...priced.new, annual_total_ore: after },
      weight_units: 10_000
    })
    accumulator.add(at(800_000, 900_000))
    accumulator.add(at(800_000, 700_000))
    accumulator.add(at(800_000, 820_000))
    expect(accumulator.finish().totals).toMatchObject({
      old_kroner: 24_000,
      new_kroner: 24_200,
      capped_kroner: 8_400 + 7_800 + 8_200
    })
  })

  it("bounds the capped total by the caps, exactly, and merges the bounds of a split book as of the whole", () => {
    /** Σ weight × amount in øre × WEIGHT_SCALE (weights have at most two decimals here). */
    const units = (amount: (entry: (typeof independent)[number]) => number) =>
      independent.reduce(
        (sum, entry) => sum + BigInt(Math.round(entry.weight * 100)) * 100n * BigInt(amount(entry)),
        0n
      )
    const price = impactPricer(comparison)
    const whole = new ImpactAccumulator(caps)
    const parts = [0, 1, 2].map(() => new ImpactAccumulator(caps))
    for (const [index, row] of rows.entries()) {
      whole.add(price(row))
      parts[(index * 7) % 3]!.add(price(row))
    }
    const merged = new ImpactAccumulator(caps)
    for (const part of parts) merged.merge(part.state())
    const bounds = whole.state().cap_bounds!
    expect(bounds.floor).toBe(units((entry) => halfUp(entry.old_ore * 9_750, 10_000)))
    expect(bounds.ceiling).toBe(units((entry) => halfUp(entry.old_ore * 10_500, 10_000)))
    // no generated policy is priced at 0: the factor on the whole premium takes every one to its ceiling
    expect(bounds.premium_highest).toBe(bounds.ceiling)
    // the factor from which every policy is at its ceiling, and below which every one is at its floor
    const largest = (values: ReadonlyArray<readonly [number, number]>) =>
      values.reduce((best, value) => (value[0] * best[1] > best[0] * value[1] ? value : best))
    const moving = independent.filter((entry) => entry.weight > 0 && entry.new_ore > 0)
    const from = largest(moving.map((entry) => [2 * halfUp(entry.old_ore * 10_500, 10_000) - 1, 2 * entry.new_ore]))
    expect(Number(bounds.premium_highest_from.numerator) / Number(bounds.premium_highest_from.denominator)).toBe(
      from[0] / from[1]
    )
    const below = largest(moving.map((entry) => [-(2 * halfUp(entry.old_ore * 9_750, 10_000) + 1), 2 * entry.new_ore]))
    expect(Number(bounds.premium_floor_below.numerator) / Number(bounds.premium_floor_below.denominator)).toBe(
      -below[0] / below[1]
    )
    expect(merged.state().cap_bounds).toEqual(bounds)
    // without an increase cap there is no ceiling; without caps, no bounds
    const floorOnly = new ImpactAccumulator({ cap_decrease_percent: 2.5 })
    for (const row of rows) floorOnly.add(price(row))
    expect(floorOnly.state().cap_bounds).toMatchObject({ floor: bounds.floor, ceiling: null, premium_highest: null })
    expect(new ImpactAccumulator().state().cap_bounds).toBeNull()
  })

  it("scales the new premium by the premium factor before capping it", () => {
    const accumulator = new ImpactAccumulator({ ...caps, premium_factor: { numerator: 11n, denominator: 10n } })
    const price = impactPricer(comparison)
    for (const row of rows) accumulator.add(price(row))
    expect(accumulator.finish().totals.capped_kroner).toBe(
      weightedKroner(independent, (entry) =>
        Math.max(
          halfUp(entry.old_ore * 9_750, 10_000),
          Math.min(halfUp(entry.new_ore * 11, 10), halfUp(entry.old_ore * 10_500, 10_000))
        )
      )
    )
  })
})

describe("cases a portfolio gets wrong", () => {
  const header =
    "policy_id,product_name,feature,policy_holder,vehicle_type,vehicle_user,vehicle_owner,vehicle_usage,vehicle_price,youngest_user_age,weight,current_premium"
  const valid = "person,personbil,person,organization,privat_person_koersel"

  it("counts and lists rejected cases by reason, naming the column, never dropping one", () => {
    const body = [
      `A,insurance-car-leasing,standard,${valid},250000,30,1,`,
      `B,insurance-car-leasing,standard,${valid},12x,30,1,`,
      `C,insurance-car-leasing,gold,${valid},250000,30,1,`,
      "",
      `D,insurance-car-leasing,standard,${valid},250000,30,-1,`,
      `E,insurance-car-leasing,standard,${valid},5,30,1,12.345`,
      `F,insurance-car-teleport,standard,${valid},250000,30,1,`,
      `G,insurance-car-standalone,standard,${valid},250000,30,0.5,9000`
    ].join("\n")
    const report = reportOf(rowsOf(header, body))
    expect(report.totals.policies).toBe(2)
    expect(report.rejected.cases).toBe(5)
    expect(report.rejected.reasons).toEqual(
      expect.arrayContaining([
        { reason: "vehicle_price: must be a string of digits", cases: 1, lines: [3] },
        { reason: "feature: must be one of: standard, premium", cases: 1, lines: [4] },
        { reason: "weight: must be a number from 0 with at most four decimals", cases: 1, lines: [6] },
        { reason: "vehicle_price: must be between 1000 and 10000000", cases: 1, lines: [7] },
        { reason: "current_premium: must be kroner with at most two decimals", cases: 1, lines: [7] },
        {
          reason: "product_name: must be one of: insurance-car-leasing, insurance-car-standalone",
          cases: 1,
          lines: [8]
        }
      ])
    )
    expect(report.current).toMatchObject({ policies: 1, current_kroner: 4_500 })
  })

  it("counts the cases of a product the comparison does not price, apart from the rejected", () => {
    const report = (() => {
      const accumulator = new ImpactAccumulator()
      const price = impactPricer({ old: [leasingV1], new: [rebalance], pricing_date: PRICING_DATE })
      for (const row of rowsOf(
        header,
        `A,insurance-car-standalone,standard,${valid},250000,30,1,\nB,,premium,${valid},250000,30,1,\n`
      ))
        accumulator.add(price(row))
      return accumulator.finish()
    })()
    expect(report.not_compared).toEqual([{ product_name: "insurance-car-standalone", cases: 1 }])
    // an empty product_name is the one product compared
    expect(report.segments.product).toMatchObject([{ segment: "insurance-car-leasing", policies: 1 }])
    expect(report.rejected.cases).toBe(0)
  })

  it("refuses a line whose fields do not match the header, naming the line", () => {
    expect(() => rowsOf(header, `A,insurance-car-leasing,standard,${valid},250000,30,1,\nB,too,few\n`)).toThrow(
      new PortfolioFormatError(3, "has 3 fields, the header 12")
    )
  })

  it("numbers lines past a quoted line break, and names the line of a quote never closed", () => {
    const quoted = `"A\nsecond line",insurance-car-leasing,standard,${valid},250000,30,1,\nB,x\n`
    expect(() => rowsOf(header, quoted)).toThrow(new PortfolioFormatError(4, "has 2 fields, the header 12"))
    expect(() => rowsOf(header, `A,insurance-car-leasing,standard,${valid},250000,30,1,\n"B,x\n`)).toThrow(
      new PortfolioFormatError(3, "a quoted field is never closed")
    )
  })

  it("cuts a file's bytes after the last whole row, never inside a quoted field, and counts the lines a chunk spans", () => {
    const bytes = new TextEncoder().encode('A,1\nB,"two\nlines"\nC,"open\nstill')
    const end = wholeRowsEnd(bytes)
    expect(new TextDecoder().decode(bytes.subarray(0, end))).toBe('A,1\nB,"two\nlines"\n')
    expect(lineBreaks(bytes.subarray(0, end))).toBe(3)
    expect(wholeRowsEnd(bytes, true)).toBe(4)
    expect(wholeRowsEnd(new TextEncoder().encode("no line break yet"))).toBe(0)
  })

  it("refuses a header with an unknown, doubled or missing column, naming line 1", () => {
    expect(() => portfolioColumns(headerFields(`${header},colour`))).toThrow(/line 1: column 13 "colour" is neither/)
    expect(() => portfolioColumns(headerFields(`${header},weight`))).toThrow(/line 1: column "weight" is named twice/)
    expect(() => portfolioColumns(headerFields("policy_id,vehicle_price"))).toThrow(
      "line 1: the header lacks the required parameter column(s) policy_holder, vehicle_type, vehicle_user, vehicle_owner, vehicle_usage"
    )
  })
})
