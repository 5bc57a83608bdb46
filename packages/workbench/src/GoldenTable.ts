/**
 * Golden tables: CSV files of pricing cases with the expected annual, monthly
 * and per-coverage premiums, checked against the tariff. Columns: case,
 * product_name, feature, pricing_date, the nine parameters (empty when not
 * sent), annually, monthly, premiums ("kasko=4000.00 ansvar=1800.00 …").
 */
import { parse } from "csv-parse/sync"
import { stringify } from "csv-stringify/sync"
import { Money, ProductCatalogue, type RatingWorksheet } from "@kasko/core/actuarial"
import type { PricingCase } from "./PricingCase.js"

/** The nine parameters, in the catalogue's order (both products define the same). */
export const PARAMETER_COLUMNS: ReadonlyArray<string> = ProductCatalogue.productDefinition(
  "insurance-car-leasing"
)!.parameters.map((parameter) => parameter.name)

const COLUMNS = [
  "case",
  "product_name",
  "feature",
  "pricing_date",
  ...PARAMETER_COLUMNS,
  "annually",
  "monthly",
  "premiums"
] as const

export interface ExpectedPrice {
  readonly annually: number
  readonly monthly: number
  /** Coverage name → premium in kroner with two decimals. */
  readonly premiums: Readonly<Record<string, string>>
}

export interface GoldenCase extends PricingCase {
  /** Absent in a cases file that only lists cases (for a tariff diff). */
  readonly expected?: ExpectedPrice
}

const premiumsOf = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split(/\s+/)
      .filter((entry) => entry !== "")
      .map((entry) => {
        const [coverage, amount] = entry.split("=")
        if (coverage === undefined || amount === undefined || !/^\d+\.\d{2}$/.test(amount))
          throw new Error(`premiums entry "${entry}" is not coverage=kroner.øre`)
        return [coverage, amount]
      })
  )

/** Reads a golden table (or a cases file without expectations). */
export const parseGoldenTable = (csv: string): Array<GoldenCase> => {
  const records = parse(csv, { columns: true, skip_empty_lines: true, trim: true, comment: "#" }) as Array<
    Record<string, string>
  >
  return records.map((record, index) => {
    for (const column of ["case", "product_name", "feature", "pricing_date"]) {
      if (!record[column]) throw new Error(`row ${index + 2}: column ${column} is empty`)
    }
    const parameters = Object.fromEntries(
      PARAMETER_COLUMNS.filter((column) => (record[column] ?? "") !== "").map((column) => [column, record[column]!])
    )
    const base: PricingCase = {
      name: record["case"]!,
      product_name: record["product_name"]!,
      feature: record["feature"]!,
      pricing_date: record["pricing_date"]!,
      parameters
    }
    if (!record["annually"]) return base
    return {
      ...base,
      expected: {
        annually: Number(record["annually"]),
        monthly: Number(record["monthly"]),
        premiums: premiumsOf(record["premiums"] ?? "")
      }
    }
  })
}

/** Writes cases with their expected prices as a golden table. */
export const formatGoldenTable = (cases: ReadonlyArray<GoldenCase>): string =>
  stringify(
    cases.map((testCase) => ({
      case: testCase.name,
      product_name: testCase.product_name,
      feature: testCase.feature,
      pricing_date: testCase.pricing_date,
      ...Object.fromEntries(PARAMETER_COLUMNS.map((column) => [column, testCase.parameters[column] ?? ""])),
      annually: testCase.expected?.annually ?? "",
      monthly: testCase.expected?.monthly ?? "",
      premiums: Object.entries(testCase.expected?.premiums ?? {})
        .map(([coverage, amount]) => `${coverage}=${amount}`)
        .join(" ")
    })),
    { header: true, columns: [...COLUMNS] }
  )

/** What a worksheet says, in the golden table's terms. */
export const actualPrice = (worksheet: RatingWorksheet.RatingWorksheet): ExpectedPrice => ({
  annually: worksheet.annually,
  monthly: worksheet.monthly,
  premiums: Object.fromEntries(
    worksheet.coverage_lines.map((line) => [line.coverage, Money.formatKroner(line.premium_ore)])
  )
})
