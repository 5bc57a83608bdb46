/**
 * A price grid over two parameters (e.g. vehicle_price × youngest_user_age):
 * every cell priced, written as CSV and drawn as a heat map with Vega-Lite
 * (rendered to SVG headless, no browser).
 */
import type { ProductCatalogue, Tariff } from "@kasko/core/actuarial"
import { stringify } from "csv-stringify/sync"
import type * as VegaLite from "vega-lite"
import { parameterLabel } from "./ParameterLabels.js"
import { priceCase, type PricingCase } from "./PricingCase.js"

/** One axis of a price grid: a parameter and the values it takes along the axis. */
export interface GridAxis {
  readonly parameter: string
  readonly values: ReadonlyArray<string>
}

/** One cell of a price grid: the two parameters' values and the yearly and monthly price there. */
export interface GridCell {
  readonly x: string
  readonly y: string
  readonly annually: number
  readonly monthly: number
}

/**
 * `vehicle_price=100000:1000000:100000` (from:to:step) or
 * `youngest_user_age=18,21,25` (a list).
 */
export const parseAxis = (text: string): GridAxis => {
  const match = /^([a-z_]+)=(.+)$/.exec(text)
  if (match === null)
    throw new Error(`an axis is <parameter>=<from>:<to>:<step> or <parameter>=<v1>,<v2>,…; got "${text}"`)
  const [, parameter, range] = match as unknown as [string, string, string]
  const stepped = /^(\d+):(\d+):(\d+)$/.exec(range)
  if (stepped === null)
    return {
      parameter,
      values: range
        .split(",")
        .map((value) => value.trim())
        .filter((value) => value !== "")
    }
  const [from, to, step] = stepped.slice(1).map(Number) as [number, number, number]
  if (step <= 0 || to < from) throw new Error(`axis ${parameter}: from ≤ to and a positive step, please`)
  if ((to - from) / step > 200) throw new Error(`axis ${parameter}: at most 200 steps`)
  return {
    parameter,
    values: Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, index) => String(from + index * step))
  }
}

/** Prices every cell of the grid. */
export const priceGrid = async (
  base: Omit<PricingCase, "name">,
  x: GridAxis,
  y: GridAxis,
  tariffs: ReadonlyArray<Tariff.Tariff>,
  catalogue?: ProductCatalogue.Catalogue
): Promise<Array<GridCell>> => {
  const cells: Array<GridCell> = []
  for (const yValue of y.values) {
    for (const xValue of x.values) {
      const worksheet = await priceCase(
        {
          ...base,
          name: `${x.parameter}=${xValue} ${y.parameter}=${yValue}`,
          parameters: { ...base.parameters, [x.parameter]: xValue, [y.parameter]: yValue }
        },
        tariffs,
        "compiled",
        catalogue
      )
      cells.push({ x: xValue, y: yValue, annually: worksheet.annually, monthly: worksheet.monthly })
    }
  }
  return cells
}

/** A price grid as CSV: a row per cell, the two parameters' values and the yearly and monthly price. */
export const gridCsv = (cells: ReadonlyArray<GridCell>, x: GridAxis, y: GridAxis): string =>
  stringify(
    cells.map((cell) => ({
      [x.parameter]: cell.x,
      [y.parameter]: cell.y,
      annually: cell.annually,
      monthly: cell.monthly
    })),
    { header: true, columns: [x.parameter, y.parameter, "annually", "monthly"] }
  )

const CELL_COLOUR = "scale('color', datum.annually)"
const LABEL_COLOUR = `contrast('white', ${CELL_COLOUR}) > contrast('black', ${CELL_COLOUR}) ? 'white' : 'black'`

/** What a chart says about itself: its title and a subtitle holding what is fixed. */
export interface ChartCaption {
  readonly title: string
  readonly subtitle: string
}

/**
 * The grid as an SVG heat map of the annual premium, each cell labelled. Axes
 * are titled in words; a cell's label turns white where the colour is dark, so
 * it stays readable.
 */
export const gridChartSvg = async (
  cells: ReadonlyArray<GridCell>,
  x: GridAxis,
  y: GridAxis,
  caption: ChartCaption
): Promise<string> => {
  // loaded only to draw: the other tools of the package (an impact test, a diff) never pay for Vega
  const [vega, vegaLite] = await Promise.all([import("vega"), import("vega-lite")])
  const spec: VegaLite.TopLevelSpec = {
    title: { text: caption.title, subtitle: caption.subtitle, anchor: "start" },
    data: { values: cells.map((cell) => ({ ...cell })) },
    width: { step: Math.max(28, Math.min(70, 900 / x.values.length)) },
    height: { step: 24 },
    encoding: {
      x: { field: "x", type: "ordinal", sort: [...x.values], title: parameterLabel(x.parameter) },
      y: { field: "y", type: "ordinal", sort: [...y.values], title: parameterLabel(y.parameter) }
    },
    layer: [
      {
        mark: "rect",
        encoding: {
          color: {
            field: "annually",
            type: "quantitative",
            title: "Annual premium (kr)",
            scale: { scheme: "orangered" }
          }
        }
      },
      {
        // black or white, whichever contrasts more with the cell's own colour
        mark: { type: "text", fontSize: 8, fill: { expr: LABEL_COLOUR } },
        encoding: { text: { field: "annually", type: "quantitative", format: "d" } }
      }
    ]
  }
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: "none" })
  try {
    return await view.toSVG()
  } finally {
    view.finalize()
  }
}
