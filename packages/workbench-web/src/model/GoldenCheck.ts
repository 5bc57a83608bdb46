/**
 * The golden tables run in the page: each row priced with the tariff under
 * check (as `kasko tariff diff` prices a case with one version) and compared
 * with the row's expectations, item by item.
 */
import { ProductCatalogue, type RatingWorksheet, type Tariff } from "@kasko/core/actuarial"
import { actualPrice, CaseRejected, priceCase, type ExpectedPrice, type GoldenCase } from "@kasko/workbench/browser"

export interface ItemMismatch {
  /** `annually`, `monthly` or `premium <coverage>`. */
  readonly item: string
  readonly expected: string
  readonly actual: string
}

export type GoldenRowResult =
  | { readonly _tag: "Passed"; readonly row: GoldenCase; readonly worksheet: RatingWorksheet.RatingWorksheet }
  | {
      readonly _tag: "Failed"
      readonly row: GoldenCase
      readonly worksheet: RatingWorksheet.RatingWorksheet
      readonly mismatches: ReadonlyArray<ItemMismatch>
    }
  | { readonly _tag: "Rejected"; readonly row: GoldenCase; readonly reason: string }

const ABSENT = "—"

/** Every item where the actual price differs from the expected one. */
export const mismatchesOf = (expected: ExpectedPrice, actual: ExpectedPrice): Array<ItemMismatch> => {
  const mismatches: Array<ItemMismatch> = []
  if (expected.annually !== actual.annually)
    mismatches.push({ item: "annually", expected: String(expected.annually), actual: String(actual.annually) })
  if (expected.monthly !== actual.monthly)
    mismatches.push({ item: "monthly", expected: String(expected.monthly), actual: String(actual.monthly) })
  for (const coverage of new Set([...Object.keys(expected.premiums), ...Object.keys(actual.premiums)])) {
    const before = expected.premiums[coverage] ?? ABSENT
    const after = actual.premiums[coverage] ?? ABSENT
    if (before !== after) mismatches.push({ item: `premium ${coverage}`, expected: before, actual: after })
  }
  return mismatches
}

/**
 * Runs the golden rows of the tariff's product (rows without expectations are left out), decoded with the
 * catalogue's products (the shipped ones unless given).
 */
export const checkGoldenRows = async (
  rows: ReadonlyArray<GoldenCase>,
  tariff: Tariff.Tariff,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): Promise<Array<GoldenRowResult>> => {
  const results: Array<GoldenRowResult> = []
  for (const row of rows) {
    if (row.product_name !== tariff.product_name || row.expected === undefined) continue
    try {
      const worksheet = await priceCase(row, [tariff], "compiled", catalogue)
      const mismatches = mismatchesOf(row.expected, actualPrice(worksheet))
      results.push(
        mismatches.length === 0 ? { _tag: "Passed", row, worksheet } : { _tag: "Failed", row, worksheet, mismatches }
      )
    } catch (error) {
      // a rejected case, or a tariff that cannot price it (a coverage added twice): the row fails with the reason
      results.push({
        _tag: "Rejected",
        row,
        reason:
          error instanceof CaseRejected ? error.message : `the tariff cannot price it: ${(error as Error).message}`
      })
    }
  }
  return results
}
