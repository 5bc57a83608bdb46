/**
 * The example van product's golden table (examples/products/insurance-van-business-v1.golden.csv, recorded by
 * test/examples/record-van-golden.mjs): every row priced by the compiled engine and by json-rules-engine, the
 * reference interpreter, as the table says — and some rows' figures worked by hand from the folder's tariff v1, so
 * that the table is not only the engine's word.
 */
import { TariffDocuments } from "@kasko/core/actuarial"
import { ProductFolders } from "@kasko/server"
import { actualPrice, parseGoldenTable, priceCase, worksheetTable } from "@kasko/workbench"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const EXAMPLES = join(import.meta.dirname, "..", "..", "examples", "products")
const products = ProductFolders.fromDirectory(EXAMPLES)
const tariffs = TariffDocuments.decodeTariffs(
  products.tariffDocuments.filter(
    (document) => (document as { product_name?: string }).product_name === "insurance-van-business"
  ),
  products.catalogue
)
const cases = parseGoldenTable(
  readFileSync(join(EXAMPLES, "insurance-van-business-v1.golden.csv"), "utf8"),
  products.catalogue
)
const named = (name: string) => {
  const found = cases.find((testCase) => testCase.name === name)
  if (found === undefined) throw new Error(`the golden table has no case "${name}"`)
  return found
}

describe("the golden table of the example van product", () => {
  it("covers both features and both variants, every parking and tools sum, the mileage bands and young drivers", async () => {
    expect(cases.length).toBeGreaterThanOrEqual(20)
    expect(new Set(cases.map((testCase) => testCase.feature))).toEqual(new Set(["basis", "plus"]))
    const variants = await Promise.all(
      cases.map(async (testCase) => (await priceCase(testCase, tariffs, "compiled", products.catalogue)).facts.variant)
    )
    expect(new Set(variants)).toEqual(new Set(["standard", "extended"]))
    expect(new Set(cases.map((testCase) => testCase.parameters["overnight_parking"]))).toEqual(
      new Set(["garage", "firmaareal", "gade"])
    )
    expect(new Set(cases.map((testCase) => testCase.parameters["tools_cover"] ?? "ingen"))).toEqual(
      new Set(["ingen", "50000", "150000"])
    )
  })

  it.each(cases.map((testCase) => [testCase.name, testCase] as const))(
    "prices %s as the table says, compiled and interpreted",
    async (_name, testCase) => {
      for (const engine of ["compiled", "json-rules-engine"] as const) {
        const worksheet = await priceCase(testCase, tariffs, engine, products.catalogue)
        const report = `${engine}: ${JSON.stringify(testCase.parameters)}\n${worksheetTable(worksheet)}`
        expect(actualPrice(worksheet), report).toEqual(testCase.expected)
      }
    }
  )

  it("holds figures worked by hand from the tariff", () => {
    // Standard (craft): kasko 2.30 % of the price up to 250 000 kr., 1.60 % above; ansvar 2 900 kr.; on a fenced
    // yard kasko −5 %; vejhjælp 450 kr. and the racking 300 kr. with either feature
    const plainest = named("craft basis, the plainest case").expected!
    expect(plainest.premiums).toEqual({
      kasko: "4370.00", // 200 000 × 2.30 % × 0.95
      ansvar: "2900.00",
      vejhjælp: "450.00",
      fastmonteret_indretning: "300.00"
    })
    // 8 020 of premiums; skadesforsikringsafgift 1.10 % of all but ansvar (56.32), statsafgift 42.90 % of ansvar
    // (1 244.10), garantifondsbidrag 40, miljøbidrag 84: 9 444.42, 9 444 kr. a year
    expect(plainest.annually).toBe(9444)
    // two bands: (250 000 × 2.30 % + 150 000 × 1.60 %) × 0.95
    expect(named("craft basis, a van above the first band").expected!.premiums["kasko"]).toBe("7742.50")
    // a driver under 25: kasko and ansvar +40 %, on top of the yard's −5 %: 4 600 × 0.95 × 1.40; 2 900 × 1.40
    expect(named("craft basis, driver 24").expected!.premiums).toMatchObject({ kasko: "6118.00", ansvar: "4060.00" })
    // 40 001 km: Extended (transport) — kasko 2.80 %, ansvar 3 600 kr. — and +15 %: 5 600 × 0.95 × 1.15; 3 600 × 1.15
    expect(named("transport basis, 40 001 km").expected!.premiums).toMatchObject({
      kasko: "6118.00",
      ansvar: "4140.00"
    })
  })
})
