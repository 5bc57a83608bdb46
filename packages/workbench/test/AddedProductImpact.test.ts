/**
 * An impact test of a product added as data: the van's book re-rated under v1 and the proposed v2 on
 * worker threads that make the catalogue from the documents they are sent — the same report as one
 * accumulator in this thread, totals that agree with the plain pricing function — and broken down by
 * the van's own parameters besides the report's dimensions.
 */
import { Pricing, TariffDocuments } from "@kasko/core/actuarial"
import { type ImpactResult, portfolioImpact, runImpact } from "@kasko/workbench"
import { Result } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { ImpactAccumulator } from "../src/ImpactAccumulator.js"
import type { PortfolioRow, TariffComparison } from "../src/ImpactPricing.js"
import { passPricer } from "../src/ImpactWorkerJob.js"
import { bandLabelsOf, parameterSegmentationsOf, parameterSegmentOf } from "../src/ParameterSegments.js"
import { forEachPortfolioRow, headerFields, portfolioColumns } from "../src/PortfolioCsv.js"
import { generatedPortfolioLines } from "../src/PortfolioGenerator.js"
import { impactCsv, impactText } from "../src/ImpactReportText.js"
import { PRICING_DATE, VAN_PRODUCTS, vanCatalogue, vanV1, vanV2 } from "./support.js"

const directory = mkdtempSync(join(tmpdir(), "kasko-van-impact-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const van = vanCatalogue.document("insurance-van-business")!
const [header, ...lines] = [...generatedPortfolioLines({ size: 3_000, seed: 44, as_of: PRICING_DATE, products: [van] })]
const file = join(directory, "van-book.csv")
writeFileSync(file, `${[header, ...lines].join("\n")}\n`)
const comparison: TariffComparison = { old: [vanV1], new: [vanV2], pricing_date: PRICING_DATE, products: VAN_PRODUCTS }
const rows: Array<PortfolioRow> = []
forEachPortfolioRow(`${lines.join("\n")}\n`, 2, portfolioColumns(headerFields(header!), vanCatalogue), (row) =>
  rows.push(row)
)

/** The same test in this thread: one accumulator over the rows in order. */
const inThisThread = (): Promise<ImpactResult> =>
  runImpact(comparison, { top_movers: 5 }, undefined, async (pass) => {
    const accumulator = new ImpactAccumulator(pass.impact)
    const price = passPricer(comparison, pass)
    for (const row of rows) accumulator.add(price(row))
    return accumulator
  })

const MILEAGE_BANDS = ["≤ 15 000", "15 001–40 000", "40 001–60 000", "60 001–100 000", "> 100 000"]

describe("an impact test of the van product, added as data", () => {
  it("reports on worker threads what one accumulator in this thread reports", async () => {
    const threaded = await portfolioImpact({
      old: [vanV1],
      new: [vanV2],
      products: VAN_PRODUCTS,
      portfolio: { file },
      impact: { top_movers: 5 },
      workers: 2,
      chunk_bytes: 16 * 1024
    })
    expect(threaded).toEqual(await inThisThread())
    expect(threaded.compared).toEqual([
      { product_name: "insurance-van-business", old_version: "v1", new_version: "v2" }
    ])
    expect(threaded.report.totals.policies).toBe(3_000)
    expect(threaded.report.rejected.cases).toBe(0)
  })

  it("totals the old and new premiums as the plain pricing function prices each case", async () => {
    const { report } = await inThisThread()
    let oldUnits = 0n
    let newUnits = 0n
    const columns = header!.split(",")
    for (const line of lines) {
      const cells = Object.fromEntries(line.split(",").map((cell, index) => [columns[index]!, cell]))
      const parameters = Object.fromEntries(
        van.parameters.flatMap((parameter) =>
          cells[parameter.name] === "" ? [] : [[parameter.name, cells[parameter.name]!] as const]
        )
      )
      const input = {
        product: { product_name: cells["product_name"], parameters, features: [{ name: cells["feature"] }] }
      }
      const priced = (tariff: typeof vanV1) =>
        BigInt(
          Result.getOrThrow(Pricing.priceOfferRequest([tariff], input, PRICING_DATE, vanCatalogue)).price
            .annual_total_ore
        )
      const weight = BigInt(Math.round(Number(cells["weight"]) * 100))
      oldUnits += weight * priced(vanV1)
      newUnits += weight * priced(vanV2)
    }
    const kroner = (hundredthsOfOre: bigint) => Number((hundredthsOfOre + 50n) / 100n) / 100
    expect(report.totals.old_kroner).toBe(kroner(oldUnits))
    expect(report.totals.new_kroner).toBe(kroner(newUnits))
  })

  it("breaks the book down by the van's own parameters: options, and a number in the bands its tariffs cut", async () => {
    const { report } = await inThisThread()
    expect(report.segments.vehicle_type.map((row) => row.segment)).toEqual(["varevogn"])
    expect(report.parameter_segments!.map((segments) => [segments.parameter, segments.title])).toEqual([
      ["vehicle_usage", "Anvendelse af varevognen"],
      ["annual_mileage_km", "Kørsel pr. år (km)"],
      ["overnight_parking", "Parkering om natten"],
      ["tools_cover", "Værktøj og varer i varevognen"]
    ])
    const segments = Object.fromEntries(report.parameter_segments!.map((entry) => [entry.parameter, entry.rows]))
    expect(segments["annual_mileage_km"]!.map((row) => row.segment)).toEqual(MILEAGE_BANDS)
    expect(segments["overnight_parking"]!.map((row) => row.segment)).toEqual(["garage", "firmaareal", "gade"])
    for (const entry of report.parameter_segments!)
      expect(entry.rows.reduce((policies, row) => policies + row.policies, 0)).toBe(3_000)
    // v2 loads the vans driven over 100 000 km apart: that band moves most
    const mileage = segments["annual_mileage_km"]!
    const largest = mileage.reduce((most, row) => ((row.change_percent ?? 0) > (most.change_percent ?? 0) ? row : most))
    expect(largest.segment).toBe("> 100 000")
    const text = impactText(await inThisThread())
    expect(text).toContain("\nBy annual_mileage_km (Kørsel pr. år (km))\nannual_mileage_km  policies")
    expect(impactCsv(await inThisThread())).toContain("\nsegment annual_mileage_km,> 100 000,")
  })

  it("segments a seed products' book as it always has: no parameter of their own, no parameter_segments", async () => {
    const [leasingV1] = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)
    const leasing = { product_name: "insurance-car-leasing", old: leasingV1!, new: leasingV1! }
    expect(parameterSegmentationsOf([leasing], vanCatalogue)).toEqual([])
    const seedComparison = { old: [leasingV1!], new: [leasingV1!], pricing_date: PRICING_DATE }
    const { report } = await runImpact(
      seedComparison,
      {},
      undefined,
      async (pass) => new ImpactAccumulator(pass.impact)
    )
    expect(Object.keys(report)).not.toContain("parameter_segments")
  })
})

describe("a number's bands", () => {
  it("are cut where the conditions compare it, whichever way they write the same cut", () => {
    const greaterThanInclusive = {
      ...vanV2,
      rules: vanV2.rules.map((rule) =>
        rule.name === "mileage over 100000 km"
          ? {
              ...rule,
              conditions: {
                all: [{ fact: "annual_mileage_km", operator: "greaterThanInclusive" as const, value: 100_001 }]
              }
            }
          : rule
      )
    }
    const [, mileage] = parameterSegmentationsOf(
      [{ product_name: "insurance-van-business", old: vanV1, new: greaterThanInclusive }],
      vanCatalogue
    )
    expect(mileage).toEqual({
      parameter: "annual_mileage_km",
      title: "Kørsel pr. år (km)",
      band_ends: [15_000, 40_000, 60_000, 100_000]
    })
    expect(bandLabelsOf(mileage!.band_ends!)).toEqual(MILEAGE_BANDS)
    expect([15_000, 15_001, 100_000, 100_001, null].map((km) => parameterSegmentOf(mileage!, km))).toEqual([
      "≤ 15 000",
      "15 001–40 000",
      "60 001–100 000",
      "> 100 000",
      "not given"
    ])
  })
})
