/** Which lines of a case's rating worksheet a tariff change moved, and how each version explains them. */
import { type Pricing, RatingWorksheet } from "@kasko/core/actuarial"
import type { MovedLine } from "./ImpactReport.js"

type PriceComputation = Pricing.PriceComputation

const kroner = (ore: number): number => ore / 100

const describeCoverageLine = (line: RatingWorksheet.RatingWorksheet["coverage_lines"][number]): string =>
  [
    line.base_description,
    ...line.loadings.map((loading) => `${loading.loading} ${loading.percent >= 0 ? "+" : ""}${loading.percent} %`)
  ].join("; ")

/** The worksheet lines (coverages, then charges) whose amounts differ between two prices of a case. */
export const movedLines = (before: PriceComputation, after: PriceComputation): Array<MovedLine> => {
  const [oldSheet, newSheet] = [RatingWorksheet.worksheetOf(before), RatingWorksheet.worksheetOf(after)]
  const moved: Array<MovedLine> = []
  const coverages = [...new Set([...oldSheet.coverage_lines, ...newSheet.coverage_lines].map((line) => line.coverage))]
  for (const coverage of coverages) {
    const was = oldSheet.coverage_lines.find((line) => line.coverage === coverage)
    const is = newSheet.coverage_lines.find((line) => line.coverage === coverage)
    if (was?.premium_ore === is?.premium_ore) continue
    moved.push({
      item: coverage,
      old_kroner: was === undefined ? null : kroner(was.premium_ore),
      new_kroner: is === undefined ? null : kroner(is.premium_ore),
      old_explanation: was === undefined ? null : describeCoverageLine(was),
      new_explanation: is === undefined ? null : describeCoverageLine(is)
    })
  }
  const charges = [...new Set([...oldSheet.charge_lines, ...newSheet.charge_lines].map((line) => line.charge))]
  for (const charge of charges) {
    const was = oldSheet.charge_lines.find((line) => line.charge === charge)
    const is = newSheet.charge_lines.find((line) => line.charge === charge)
    if (was?.amount_ore === is?.amount_ore) continue
    moved.push({
      item: `charge ${charge}`,
      old_kroner: was === undefined ? null : kroner(was.amount_ore),
      new_kroner: is === undefined ? null : kroner(is.amount_ore),
      old_explanation: was?.description ?? null,
      new_explanation: is?.description ?? null
    })
  }
  return moved
}
