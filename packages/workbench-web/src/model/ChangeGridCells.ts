/**
 * The change between two tariff versions over a grid: each cell priced
 * under both, and the change of the annual premium in per cent, rounded as
 * `kasko tariff diff` rounds it (two decimals; none when the old price is 0).
 */
import { ProductCatalogue, type Tariff } from "@kasko/core/actuarial"
import { stringify } from "csv-stringify/sync"
import { priceCaseInput, type CasePrice } from "./CasePrice.js"
import type { CaseInput } from "./CaseInput.js"
import type { GridAxis } from "./GridAxis.js"
import { cellCase } from "./PriceGridCells.js"

export interface ChangeCell {
  readonly x: string
  readonly y: string
  readonly old: CasePrice
  readonly new: CasePrice
  /** Null when either price is missing or the old one is 0. */
  readonly change_percent: number | null
}

/** `kasko tariff diff`'s per-cent change: (new − old) ÷ old, in per cent with two decimals. */
export const changePercent = (before: number, after: number): number | null =>
  before === 0 ? null : Math.round(((after - before) / before) * 10_000) / 100

/** Prices every cell under the old and the new version, with the catalogue's products (the shipped ones unless given). */
export const changeGridCells = (
  base: CaseInput,
  x: GridAxis,
  y: GridAxis,
  oldTariff: Tariff.Tariff,
  newTariff: Tariff.Tariff,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): Array<ChangeCell> =>
  y.values.flatMap((yValue) =>
    x.values.map((xValue) => {
      const cell = cellCase(base, x, y, xValue, yValue)
      const before = priceCaseInput(cell, [oldTariff], catalogue)
      const after = priceCaseInput(cell, [newTariff], catalogue)
      return {
        x: xValue,
        y: yValue,
        old: before,
        new: after,
        change_percent:
          before._tag === "Priced" && after._tag === "Priced"
            ? changePercent(before.worksheet.annually, after.worksheet.annually)
            : null
      }
    })
  )

/** The change grid as CSV: both annual premiums and the change in per cent per cell. */
export const changeCellsCsv = (cells: ReadonlyArray<ChangeCell>, x: GridAxis, y: GridAxis): string =>
  stringify(
    cells.map((cell) => ({
      [x.parameter]: cell.x,
      [y.parameter]: cell.y,
      old_annually: cell.old._tag === "Priced" ? cell.old.worksheet.annually : "",
      new_annually: cell.new._tag === "Priced" ? cell.new.worksheet.annually : "",
      change_percent: cell.change_percent ?? ""
    })),
    { header: true, columns: [x.parameter, y.parameter, "old_annually", "new_annually", "change_percent"] }
  )
