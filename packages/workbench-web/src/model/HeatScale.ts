/**
 * The colours of the heat maps: a sequential orange–red scale for premiums
 * (darker is dearer) and a diverging blue–white–red scale for changes
 * (blue cheaper, red dearer, white unchanged), with the label colour that
 * stays readable on each.
 */

type Rgb = readonly [number, number, number]

const SEQUENTIAL: ReadonlyArray<Rgb> = [
  [255, 245, 235],
  [253, 208, 162],
  [253, 141, 60],
  [217, 72, 1],
  [127, 39, 4]
]

const DIVERGING: ReadonlyArray<Rgb> = [
  [33, 102, 172],
  [146, 197, 222],
  [247, 247, 247],
  [244, 165, 130],
  [178, 24, 43]
]

const interpolate = (stops: ReadonlyArray<Rgb>, t: number): Rgb => {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0))
  const position = clamped * (stops.length - 1)
  const index = Math.min(stops.length - 2, Math.floor(position))
  const fraction = position - index
  const [a, b] = [stops[index]!, stops[index + 1]!]
  return [0, 1, 2].map((channel) => Math.round(a[channel]! + (b[channel]! - a[channel]!) * fraction)) as unknown as Rgb
}

const hex = ([red, green, blue]: Rgb) =>
  `#${[red, green, blue].map((channel) => channel.toString(16).padStart(2, "0")).join("")}`

/** The fill of a value between min and max on the sequential scale. */
export const sequentialColour = (value: number, min: number, max: number): string =>
  hex(interpolate(SEQUENTIAL, max === min ? 0.5 : (value - min) / (max - min)))

/** The fill of a change on the diverging scale, white at 0, full colour at ±limit. */
export const divergingColour = (value: number, limit: number): string =>
  hex(interpolate(DIVERGING, limit === 0 ? 0.5 : 0.5 + value / (2 * limit)))

/** Black or white, whichever reads better on the fill (WCAG relative luminance). */
export const labelColour = (fill: string): string => {
  const channels = [1, 3, 5].map((start) => parseInt(fill.slice(start, start + 2), 16) / 255)
  const [red, green, blue] = channels.map((channel) =>
    channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
  ) as [number, number, number]
  const luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
  // contrast with black (L + 0.05) / 0.05 against white 1.05 / (L + 0.05): pick the larger
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? "#000000" : "#ffffff"
}
