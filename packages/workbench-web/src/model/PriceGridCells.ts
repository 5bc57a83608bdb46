/**
 * A price grid priced in the page: every cell of two axes over a base case,
 * in the order `kasko price-grid` prices and writes them (rows of y, then x),
 * and its CSV in that command's columns.
 */
import { ProductCatalogue, type Tariff } from "@kasko/core/actuarial"
import { stringify } from "csv-stringify/sync"
import { priceCaseInput, type CasePrice } from "./CasePrice.js"
import type { CaseInput } from "./CaseInput.js"
import type { GridAxis } from "./GridAxis.js"

export interface PricedCell {
  readonly x: string
  readonly y: string
  readonly price: CasePrice
}

/** The base case with one cell's axis values. */
export const cellCase = (base: CaseInput, x: GridAxis, y: GridAxis, xValue: string, yValue: string): CaseInput => ({
  ...base,
  parameters: { ...base.parameters, [x.parameter]: xValue, [y.parameter]: yValue }
})

/** Prices every cell of the grid, with the catalogue's products (the shipped ones unless given). */
export const priceGridCells = (
  base: CaseInput,
  x: GridAxis,
  y: GridAxis,
  tariffs: ReadonlyArray<Tariff.Tariff>,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): Array<PricedCell> =>
  y.values.flatMap((yValue) =>
    x.values.map((xValue) => ({
      x: xValue,
      y: yValue,
      price: priceCaseInput(cellCase(base, x, y, xValue, yValue), tariffs, catalogue)
    }))
  )

/** The grid as `kasko price-grid` writes its CSV; a cell that cannot be priced has empty prices. */
export const gridCellsCsv = (cells: ReadonlyArray<PricedCell>, x: GridAxis, y: GridAxis): string =>
  stringify(
    cells.map((cell) => ({
      [x.parameter]: cell.x,
      [y.parameter]: cell.y,
      annually: cell.price._tag === "Priced" ? cell.price.worksheet.annually : "",
      monthly: cell.price._tag === "Priced" ? cell.price.worksheet.monthly : ""
    })),
    { header: true, columns: [x.parameter, y.parameter, "annually", "monthly"] }
  )
