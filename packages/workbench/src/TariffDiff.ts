/**
 * The impact of a tariff change: each case priced under the old and the new
 * tariff, and every premium that changed, in kroner and per cent — what an
 * actuary reviews before a new version takes effect.
 */
import type { ProductCatalogue, Tariff } from "@kasko/core/actuarial"
import { actualPrice } from "./GoldenTable.js"
import { priceCase, type PricingCase } from "./PricingCase.js"
import { plainMoney } from "./ReportFigures.js"

/** One price that differs between two tariff versions for a case: the yearly, monthly or a coverage's, old and new. */
export interface PriceChange {
  readonly case: string
  /** `annually`, `monthly`, or the coverage whose premium changed. */
  readonly item: string
  readonly old_kroner: number
  readonly new_kroner: number
  readonly change_kroner: number
  /** Null when the old amount was zero (or the item is new). */
  readonly change_percent: number | null
}

const change = (name: string, item: string, before: number, after: number): PriceChange => ({
  case: name,
  item,
  old_kroner: before,
  new_kroner: after,
  change_kroner: Math.round((after - before) * 100) / 100,
  change_percent: before === 0 ? null : Math.round(((after - before) / before) * 10_000) / 100
})

/** Every changed premium of the cases of the tariffs' product (both tariffs must be of one product). */
export const diffTariffs = async (
  oldTariff: Tariff.Tariff,
  newTariff: Tariff.Tariff,
  cases: ReadonlyArray<PricingCase>,
  catalogue?: ProductCatalogue.Catalogue
): Promise<Array<PriceChange>> => {
  if (oldTariff.product_name !== newTariff.product_name) {
    throw new Error(`the tariffs price different products: ${oldTariff.product_name} and ${newTariff.product_name}`)
  }
  const changes: Array<PriceChange> = []
  for (const testCase of cases.filter((candidate) => candidate.product_name === oldTariff.product_name)) {
    const before = actualPrice(await priceCase(testCase, [oldTariff], "compiled", catalogue))
    const after = actualPrice(await priceCase(testCase, [newTariff], "compiled", catalogue))
    if (before.annually !== after.annually)
      changes.push(change(testCase.name, "annually", before.annually, after.annually))
    if (before.monthly !== after.monthly) changes.push(change(testCase.name, "monthly", before.monthly, after.monthly))
    for (const coverage of new Set([...Object.keys(before.premiums), ...Object.keys(after.premiums)])) {
      const old = Number(before.premiums[coverage] ?? 0)
      const next = Number(after.premiums[coverage] ?? 0)
      if (old !== next) changes.push(change(testCase.name, `premium ${coverage}`, old, next))
    }
  }
  return changes
}

/** The changes as an aligned text report. */
export const diffReport = (changes: ReadonlyArray<PriceChange>, casesPriced: number): string => {
  const changedCases = new Set(changes.map((entry) => entry.case)).size
  if (changes.length === 0) return `no premium changes in ${casesPriced} cases\n`
  const rows = changes.map((entry) => [
    entry.case,
    entry.item,
    plainMoney(entry.old_kroner),
    plainMoney(entry.new_kroner),
    `${entry.change_kroner >= 0 ? "+" : ""}${plainMoney(entry.change_kroner)}`,
    entry.change_percent === null
      ? "new"
      : `${entry.change_percent >= 0 ? "+" : ""}${entry.change_percent.toFixed(2)} %`
  ])
  const header = ["case", "item", "old kr", "new kr", "change kr", "change %"]
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
  const format = (row: ReadonlyArray<string>) =>
    row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ")
  return `${[format(header), ...rows.map(format)].join("\n")}\n\n${changedCases} of ${casesPriced} cases change\n`
}
