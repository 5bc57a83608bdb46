/**
 * The histogram of an impact test: a bar per band of change per policy, its
 * height the policies in the band, drawn as SVG with every colour an attribute
 * (so an exported SVG is the chart as seen, and a PNG is that SVG drawn on a
 * canvas), with exports as SVG and PNG. Decreases are blue, increases red,
 * deeper the further from no change; each bar's tooltip gives its premiums.
 */
import { type BandRow, ReportFigures } from "@kasko/workbench/browser"
import { divergingColour } from "../../model/HeatScale.js"
import { h, s } from "../Dom.js"
import { downloadPng, downloadSvg } from "./Downloads.js"

export interface BandHistogramOptions {
  readonly title: string
  readonly bands: ReadonlyArray<BandRow>
  readonly fileName: string
}

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
const BAR_WIDTH = 84
const GAP = 10
const PLOT_HEIGHT = 240
const LEFT = 72
const TOP = 48

/** A round step for about four grid lines up to `max`. */
const tickStep = (max: number): number => {
  if (max <= 4) return 1
  const rough = max / 4
  const power = 10 ** Math.floor(Math.log10(rough))
  return ([1, 2, 2.5, 5, 10].find((step) => step * power >= rough) ?? 10) * power
}

/** A band's label in lines: a per cent kept whole, the words after it below (`−20 %` / `to −10 %`). */
const labelLines = (band: string): Array<string> => band.split(/(?<=%) /)

/** A band's fill: blue below no change, red above, deeper further out; grey for no change and no old premium. */
const fillsOf = (bands: ReadonlyArray<BandRow>): Array<string> => {
  const decreasing = bands.filter(
    (band) => band.to_percent !== null && band.to_percent <= 0 && band.band !== "unchanged"
  )
  const increasing = bands.filter(
    (band) => band.from_percent !== null && band.from_percent >= 0 && band.to_percent !== 0
  )
  return bands.map((band) => {
    if (band.band === "unchanged") return "#9e9e9e"
    const down = decreasing.indexOf(band)
    // nearest no change is palest, yet never white on the white page
    if (down !== -1) return divergingColour(-(0.35 + (0.65 * (decreasing.length - down)) / decreasing.length), 1)
    const up = increasing.indexOf(band)
    if (up !== -1) return divergingColour(0.35 + (0.65 * (up + 1)) / increasing.length, 1)
    return "#d9d9d9"
  })
}

const money = (kroner: number) => `${ReportFigures.money(kroner)} kr`

/** The histogram with its export buttons. */
export const bandHistogram = (options: BandHistogramOptions): HTMLElement => {
  const { bands } = options
  const fills = fillsOf(bands)
  const max = Math.max(1, ...bands.map((band) => band.policies))
  const step = tickStep(max)
  const top = Math.ceil(max / step) * step
  const plotWidth = bands.length * (BAR_WIDTH + GAP) + GAP
  const width = Math.max(LEFT + plotWidth + 20, LEFT + options.title.length * 8 + 20)
  const baseline = TOP + PLOT_HEIGHT
  const height = baseline + 86
  const yOf = (policies: number) => baseline - (policies / top) * PLOT_HEIGHT
  const text = (attributes: Record<string, string | number>, content: string) =>
    s("text", { "font-family": FONT, fill: "#111111", "font-size": 11, ...attributes }, content)

  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, index) => index * step)
  const grid = ticks.map((tick) => [
    s("line", {
      x1: LEFT,
      x2: LEFT + plotWidth,
      y1: yOf(tick),
      y2: yOf(tick),
      stroke: tick === 0 ? "#555555" : "#e3e3e3",
      "stroke-width": 1
    }),
    text({ x: LEFT - 8, y: yOf(tick) + 4, "text-anchor": "end" }, ReportFigures.count(tick))
  ])

  const bars = bands.map((band, index) => {
    const x = LEFT + GAP + index * (BAR_WIDTH + GAP)
    const y = yOf(band.policies)
    const tooltip = `${band.band}: ${ReportFigures.count(band.policies)} policies, ${money(band.old_kroner)} before, ${money(band.new_kroner)} after`
    return s(
      "g",
      { class: "band" },
      s(
        "rect",
        {
          class: "band-bar",
          x,
          y,
          width: BAR_WIDTH,
          height: baseline - y,
          fill: fills[index]!,
          stroke: "#6b6b6b",
          "stroke-width": 0.5,
          "data-band": band.band,
          "data-policies": band.policies
        },
        s("title", {}, tooltip)
      ),
      text(
        { class: "bar-count", x: x + BAR_WIDTH / 2, y: y - 5, "text-anchor": "middle", "data-band": band.band },
        ReportFigures.count(band.policies)
      ),
      labelLines(band.band).map((line, row) =>
        text(
          {
            class: "bar-label",
            x: x + BAR_WIDTH / 2,
            y: baseline + 16 + row * 13,
            "text-anchor": "middle"
          },
          line
        )
      )
    )
  })

  const titleId = `histogram-${options.fileName.replace(/[^a-z0-9]/gi, "")}-title`
  const svg = s(
    "svg",
    {
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      "aria-labelledby": titleId,
      class: "band-histogram-chart"
    },
    s("title", { id: titleId }, options.title),
    s("rect", { x: 0, y: 0, width, height, fill: "#ffffff" }),
    text({ x: LEFT, y: 22, "font-size": 14, "font-weight": "bold" }, options.title),
    grid,
    bars,
    text(
      {
        x: 16,
        y: TOP + PLOT_HEIGHT / 2,
        "text-anchor": "middle",
        "font-size": 12,
        transform: `rotate(-90 16 ${TOP + PLOT_HEIGHT / 2})`
      },
      "policies"
    ),
    text(
      { x: LEFT + plotWidth / 2, y: height - 14, "text-anchor": "middle", "font-size": 12 },
      "change of the policy's annual premium"
    )
  )

  return h(
    "figure",
    { class: "band-histogram" },
    h("div", { class: "chart-frame" }, svg),
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
