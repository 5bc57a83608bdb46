/**
 * A price grid over two parameters (e.g. vehicle_price × youngest_user_age):
 * every cell priced, written as CSV and drawn as a heat map with Vega-Lite
 * (rendered to SVG headless, no browser).
 */
import type { Tariff } from "@kasko/core"
import { stringify } from "csv-stringify/sync"
import * as vega from "vega"
import * as vegaLite from "vega-lite"
import { priceCase, type PricingCase } from "./PricingCase.js"

export interface GridAxis {
  readonly parameter: string
  readonly values: ReadonlyArray<string>
}

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
  if (match === null) throw new Error(`an axis is <parameter>=<from>:<to>:<step> or <parameter>=<v1>,<v2>,…; got "${text}"`)
  const [, parameter, range] = match as unknown as [string, string, string]
  const stepped = /^(\d+):(\d+):(\d+)$/.exec(range)
  if (stepped === null) return { parameter, values: range.split(",").map((value) => value.trim()).filter((value) => value !== "") }
  const [from, to, step] = stepped.slice(1).map(Number) as [number, number, number]
  if (step <= 0 || to < from) throw new Error(`axis ${parameter}: from ≤ to and a positive step, please`)
  if ((to - from) / step > 200) throw new Error(`axis ${parameter}: at most 200 steps`)
  return { parameter, values: Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, index) => String(from + index * step)) }
}

/** Prices every cell of the grid. */
export const priceGrid = async (
  base: Omit<PricingCase, "name">,
  x: GridAxis,
  y: GridAxis,
  tariffs: ReadonlyArray<Tariff.Tariff>
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
        tariffs
      )
      cells.push({ x: xValue, y: yValue, annually: worksheet.annually, monthly: worksheet.monthly })
    }
  }
  return cells
}

export const gridCsv = (cells: ReadonlyArray<GridCell>, x: GridAxis, y: GridAxis): string =>
  stringify(
    cells.map((cell) => ({ [x.parameter]: cell.x, [y.parameter]: cell.y, annually: cell.annually, monthly: cell.monthly })),
    { header: true, columns: [x.parameter, y.parameter, "annually", "monthly"] }
  )

/** The grid as an SVG heat map of the annual premium, each cell labelled. */
export const gridChartSvg = async (cells: ReadonlyArray<GridCell>, x: GridAxis, y: GridAxis, title: string): Promise<string> => {
  const sort = (axis: GridAxis) => [...axis.values]
  const spec: vegaLite.TopLevelSpec = {
    title,
    data: { values: cells.map((cell) => ({ ...cell })) },
    width: { step: Math.max(28, Math.min(70, 900 / x.values.length)) },
    height: { step: 24 },
    encoding: {
      x: { field: "x", type: "ordinal", sort: sort(x), title: x.parameter },
      y: { field: "y", type: "ordinal", sort: sort(y), title: y.parameter }
    },
    layer: [
      {
        mark: "rect",
        encoding: { color: { field: "annually", type: "quantitative", title: "annually (kr)", scale: { scheme: "orangered" } } }
      },
      {
        mark: { type: "text", fontSize: 8 },
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
