/**
 * A heat map drawn as SVG: one cell per pair of axis values, coloured by its
 * value and labelled with it, a legend, and exports as SVG and PNG. Hovering
 * a cell, or moving to it with the arrow keys once the map has focus,
 * selects it; the view shows what the selected cell is made of.
 */
import { ReportFigures } from "@kasko/workbench/browser"
import { divergingColour, labelColour, sequentialColour } from "../../model/HeatScale.js"
import { h, s } from "../Dom.js"
import { downloadPng, downloadSvg } from "./Downloads.js"

export interface HeatCell {
  readonly x: string
  readonly y: string
  /** Null: no value (the cell cannot be priced). */
  readonly value: number | null
  readonly label: string
}

export interface HeatMapOptions {
  readonly title: string
  readonly xTitle: string
  readonly yTitle: string
  readonly xValues: ReadonlyArray<string>
  readonly yValues: ReadonlyArray<string>
  readonly cells: ReadonlyArray<HeatCell>
  /** `sequential` for amounts, `diverging` for changes around 0. */
  readonly scale: "sequential" | "diverging"
  readonly legendTitle: string
  readonly fileName: string
  readonly onSelect: (cell: HeatCell) => void
}

const CELL_HEIGHT = 26
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"

const textWidth = (text: string) => text.length * 7

/** The heat map with its export buttons. */
export const heatMap = (options: HeatMapOptions): HTMLElement => {
  const { xValues, yValues, cells } = options
  const cellWidth = Math.max(
    46,
    Math.min(90, Math.floor(900 / Math.max(1, xValues.length))),
    ...cells.map((cell) => textWidth(cell.label) + 8)
  )
  const left = Math.max(90, ...yValues.map((value) => textWidth(value) + 24)) + 18
  const top = 44
  // wide enough for the cells and for the title above them
  const width = Math.max(left + cellWidth * xValues.length + 20, left + options.title.length * 8 + 20)
  const legendTop = top + CELL_HEIGHT * yValues.length + 60
  const height = legendTop + 48
  const values = cells.flatMap((cell) => (cell.value === null ? [] : [cell.value]))
  const [min, max] = values.length === 0 ? [0, 0] : [Math.min(...values), Math.max(...values)]
  const limit = Math.max(Math.abs(min), Math.abs(max))
  const fillOf = (value: number | null) =>
    value === null
      ? "#d9d9d9"
      : options.scale === "sequential"
        ? sequentialColour(value, min, max)
        : divergingColour(value, limit)

  const byPosition = new Map(cells.map((cell) => [`${cell.x}\u0000${cell.y}`, cell]))
  const status = h("p", { class: "cell-status", role: "status" })
  let selected: { column: number; row: number } | undefined

  const highlight = s("rect", {
    class: "selection",
    x: 0,
    y: 0,
    width: cellWidth,
    height: CELL_HEIGHT,
    fill: "none",
    stroke: "#111111",
    "stroke-width": 2.5,
    visibility: "hidden",
    "pointer-events": "none"
  })

  const select = (column: number, row: number) => {
    const cell = byPosition.get(`${xValues[column]}\u0000${yValues[row]}`)
    if (cell === undefined) return
    selected = { column, row }
    highlight.setAttribute("x", String(left + column * cellWidth))
    highlight.setAttribute("y", String(top + row * CELL_HEIGHT))
    highlight.setAttribute("visibility", "visible")
    status.textContent = `${options.xTitle} ${cell.x}, ${options.yTitle} ${cell.y}: ${cell.label}`
    options.onSelect(cell)
  }

  const body = yValues.flatMap((yValue, row) =>
    xValues.map((xValue, column) => {
      const cell = byPosition.get(`${xValue}\u0000${yValue}`)
      const value = cell?.value ?? null
      const fill = fillOf(value)
      const x = left + column * cellWidth
      const y = top + row * CELL_HEIGHT
      const rect = s("rect", {
        x,
        y,
        width: cellWidth,
        height: CELL_HEIGHT,
        fill,
        stroke: "#ffffff",
        "stroke-width": 1,
        "data-x": xValue,
        "data-y": yValue,
        onmouseenter: () => select(column, row)
      })
      const label = s(
        "text",
        {
          x: x + cellWidth / 2,
          y: y + CELL_HEIGHT / 2 + 4,
          "text-anchor": "middle",
          "font-size": 11,
          "font-family": FONT,
          fill: labelColour(fill),
          "pointer-events": "none",
          class: "cell-label",
          "data-x": xValue,
          "data-y": yValue
        },
        cell?.label ?? ""
      )
      return [rect, label]
    })
  )

  const legendWidth = Math.min(300, width - left - 20)
  const gradientId = `legend-${options.fileName.replace(/[^a-z0-9]/gi, "")}`
  const stops = [0, 0.25, 0.5, 0.75, 1].map((t) =>
    s("stop", {
      offset: `${t * 100}%`,
      "stop-color":
        options.scale === "sequential"
          ? sequentialColour(min + (max - min) * t, min, max)
          : divergingColour(-limit + 2 * limit * t, limit)
    })
  )
  const legendLow = options.scale === "sequential" ? min : -limit
  const legendHigh = options.scale === "sequential" ? max : limit

  const svg = s(
    "svg",
    {
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      "aria-labelledby": `${gradientId}-title`,
      class: "heat-map-chart"
    },
    s("title", { id: `${gradientId}-title` }, options.title),
    s("rect", { x: 0, y: 0, width, height, fill: "#ffffff" }),
    s(
      "text",
      { x: left, y: 20, "font-size": 14, "font-weight": "bold", "font-family": FONT, fill: "#111111" },
      options.title
    ),
    xValues.map((value, column) =>
      s(
        "text",
        {
          x: left + column * cellWidth + cellWidth / 2,
          y: top + CELL_HEIGHT * yValues.length + 16,
          "text-anchor": "middle",
          "font-size": 11,
          "font-family": FONT,
          fill: "#111111"
        },
        value
      )
    ),
    s(
      "text",
      {
        x: left + (cellWidth * xValues.length) / 2,
        y: top + CELL_HEIGHT * yValues.length + 36,
        "text-anchor": "middle",
        "font-size": 12,
        "font-family": FONT,
        fill: "#111111"
      },
      options.xTitle
    ),
    yValues.map((value, row) =>
      s(
        "text",
        {
          x: left - 8,
          y: top + row * CELL_HEIGHT + CELL_HEIGHT / 2 + 4,
          "text-anchor": "end",
          "font-size": 11,
          "font-family": FONT,
          fill: "#111111"
        },
        value
      )
    ),
    s(
      "text",
      {
        x: 14,
        y: top + (CELL_HEIGHT * yValues.length) / 2,
        "text-anchor": "middle",
        "font-size": 12,
        "font-family": FONT,
        fill: "#111111",
        transform: `rotate(-90 14 ${top + (CELL_HEIGHT * yValues.length) / 2})`
      },
      options.yTitle
    ),
    s("g", { class: "cells" }, body),
    highlight,
    s("defs", {}, s("linearGradient", { id: gradientId, x1: "0", x2: "1", y1: "0", y2: "0" }, stops)),
    s(
      "text",
      { x: left, y: legendTop - 6, "font-size": 11, "font-family": FONT, fill: "#111111" },
      options.legendTitle
    ),
    s("rect", {
      x: left,
      y: legendTop,
      width: legendWidth,
      height: 12,
      fill: `url(#${gradientId})`,
      stroke: "#777777",
      "stroke-width": 0.5
    }),
    s(
      "text",
      { x: left, y: legendTop + 26, "font-size": 11, "font-family": FONT, fill: "#111111" },
      formatLegend(legendLow, options.scale)
    ),
    s(
      "text",
      {
        x: left + legendWidth,
        y: legendTop + 26,
        "text-anchor": "end",
        "font-size": 11,
        "font-family": FONT,
        fill: "#111111"
      },
      formatLegend(legendHigh, options.scale)
    )
  )

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, readonly [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1]
    }
    const move = moves[event.key]
    if (move === undefined) return
    event.preventDefault()
    const current = selected ?? { column: 0, row: 0 }
    const column = selected === undefined ? 0 : Math.min(xValues.length - 1, Math.max(0, current.column + move[0]))
    const row = selected === undefined ? 0 : Math.min(yValues.length - 1, Math.max(0, current.row + move[1]))
    select(column, row)
  }

  return h(
    "figure",
    { class: "heat-map" },
    h(
      "div",
      {
        class: "chart-frame",
        tabindex: 0,
        role: "group",
        "aria-label": `${options.title}. Arrow keys move between cells.`,
        onkeydown: onKeyDown as (event: Event) => void,
        onfocus: () => {
          if (selected === undefined && xValues.length > 0 && yValues.length > 0) select(0, 0)
        }
      },
      svg
    ),
    status,
    h(
      "figcaption",
      {},
      h(
        "button",
        { type: "button", onclick: () => downloadSvg(`${options.fileName}.svg`, svg) },
        "Export chart as SVG"
      ),
      " ",
      h(
        "button",
        { type: "button", onclick: () => void downloadPng(`${options.fileName}.png`, svg) },
        "Export chart as PNG"
      )
    )
  )
}

const formatLegend = (value: number, scale: "sequential" | "diverging") =>
  scale === "sequential" ? `${ReportFigures.wholeMoney(value)} kr` : `${value > 0 ? "+" : ""}${value.toFixed(2)} %`
