/**
 * Coverages as the API shows them (spec §2.5), selected by the tariff for a
 * product × variant × feature: every coverage line of the worksheet plus the
 * charges the tariff lists as coverages (statsafgift in Extended), in tariff order.
 */
import { Schema } from "effect"
import { kronerHalfUp } from "./Money.js"
import type { RatingWorksheet } from "./RatingWorksheet.js"

export const Coverage = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  deductible: Schema.optionalWith(Schema.Int, { exact: true }),
  limit: Schema.optionalWith(Schema.Int, { exact: true })
})
export type Coverage = typeof Coverage.Type

/** The coverages a worksheet priced, amounts in whole kroner. */
export const coveragesOf = (worksheet: RatingWorksheet): Array<Coverage> => {
  const listed: Array<Coverage & { readonly position: number }> = [
    ...worksheet.coverage_lines.map((line) => ({
      position: line.position,
      id: line.id,
      name: line.coverage,
      ...(line.deductible_ore === undefined ? {} : { deductible: kronerHalfUp(line.deductible_ore) }),
      ...(line.limit_ore === undefined ? {} : { limit: kronerHalfUp(line.limit_ore) })
    })),
    ...worksheet.charge_lines.flatMap((charge) =>
      charge.listed_as_coverage === undefined
        ? []
        : [{ position: charge.listed_as_coverage.position, id: charge.listed_as_coverage.id, name: charge.charge }]
    )
  ]
  return listed.sort((a, b) => a.position - b.position).map(({ position: _position, ...coverage }) => coverage)
}
