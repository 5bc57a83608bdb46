/**
 * Golden tables: CSV files of pricing cases with the expected annual, monthly
 * and per-coverage premiums, checked against the tariff. Columns: case,
 * product_name, feature, pricing_date, the nine parameters (empty when not
 * sent), annually, monthly, premiums ("kasko=4000.00 ansvar=1800.00 …").
 * Read by the one CSV reader (CsvRows.ts), as portfolios are: blank lines and
 * lines starting with # are skipped, cells trimmed, and a malformed file is
 * refused with a `CsvFormatError` naming its line.
 */
import { stringify } from "csv-stringify/sync"
import { Money, ProductCatalogue, type RatingWorksheet } from "@kasko/core/actuarial"
import { CsvFormatError, fieldCountProblem, forEachCsvRow } from "./CsvRows.js"
import { parameterColumnsOf } from "./ParameterColumns.js"
import type { PricingCase } from "./PricingCase.js"

const columnsOf = (parameterColumns: ReadonlyArray<string>) =>
  ["case", "product_name", "feature", "pricing_date", ...parameterColumns, "annually", "monthly", "premiums"] as const

/** The price a golden table expects for its case: yearly and monthly, and each coverage's premium. */
export interface ExpectedPrice {
  readonly annually: number
  readonly monthly: number
  /** Coverage name → premium in kroner with two decimals. */
  readonly premiums: Readonly<Record<string, string>>
}

/** One row of a golden table: a case to price and, when the table records it, the price it must get. */
export interface GoldenCase extends PricingCase {
  /** Absent in a cases file that only lists cases (for a tariff diff). */
  readonly expected?: ExpectedPrice
}

const premiumsOf = (text: string, line: number): Record<string, string> =>
  Object.fromEntries(
    text
      .split(/\s+/)
      .filter((entry) => entry !== "")
      .map((entry) => {
        const [coverage, amount] = entry.split("=")
        if (coverage === undefined || amount === undefined || !/^\d+\.\d{2}$/.test(amount))
          throw new CsvFormatError(line, `premiums entry "${entry}" is not coverage=kroner.øre`)
        return [coverage, amount]
      })
  )

const formatError = (line: number, problem: string) => new CsvFormatError(line, problem)

/** Each row of a golden table after its header, as its cells by column name, with its line. */
const recordsOf = (csv: string): Array<{ readonly line: number; readonly record: Record<string, string> }> => {
  let header: ReadonlyArray<string> | undefined
  const records: Array<{ line: number; record: Record<string, string> }> = []
  forEachCsvRow(csv.replace(/^\uFEFF/, ""), { firstLine: 1, formatError }, (fields, line) => {
    if (fields[0]!.trimStart().startsWith("#")) return
    const cells = fields.map((field) => field.trim())
    if (header === undefined) {
      header = cells
      return
    }
    if (cells.length !== header.length) throw formatError(line, fieldCountProblem(cells.length, header.length))
    records.push({ line, record: Object.fromEntries(header.map((name, column) => [name, cells[column]!])) })
  })
  return records
}

/**
 * Reads a golden table (or a cases file without expectations); throws a `CsvFormatError` naming the
 * line of a malformed row or of one that leaves a case's name, product, feature or date empty.
 */
export const parseGoldenTable = (
  csv: string,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): Array<GoldenCase> => {
  const parameterColumns = parameterColumnsOf(catalogue)
  return recordsOf(csv).map(({ line, record }) => {
    for (const column of ["case", "product_name", "feature", "pricing_date"]) {
      if (!record[column]) throw formatError(line, `column ${column} is empty`)
    }
    const parameters = Object.fromEntries(
      parameterColumns.filter((column) => (record[column] ?? "") !== "").map((column) => [column, record[column]!])
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
        premiums: premiumsOf(record["premiums"] ?? "", line)
      }
    }
  })
}

/** Writes cases with their expected prices as a golden table. */
export const formatGoldenTable = (
  cases: ReadonlyArray<GoldenCase>,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): string => {
  const parameterColumns = parameterColumnsOf(catalogue)
  return stringify(
    cases.map((testCase) => ({
      case: testCase.name,
      product_name: testCase.product_name,
      feature: testCase.feature,
      pricing_date: testCase.pricing_date,
      ...Object.fromEntries(parameterColumns.map((column) => [column, testCase.parameters[column] ?? ""])),
      annually: testCase.expected?.annually ?? "",
      monthly: testCase.expected?.monthly ?? "",
      premiums: Object.entries(testCase.expected?.premiums ?? {})
        .map(([coverage, amount]) => `${coverage}=${amount}`)
        .join(" ")
    })),
    { header: true, columns: [...columnsOf(parameterColumns)] }
  )
}

/** What a worksheet says, in the golden table's terms. */
export const actualPrice = (worksheet: RatingWorksheet.RatingWorksheet): ExpectedPrice => ({
  annually: worksheet.annually,
  monthly: worksheet.monthly,
  premiums: Object.fromEntries(
    worksheet.coverage_lines.map((line) => [line.coverage, Money.formatKroner(line.premium_ore)])
  )
})
