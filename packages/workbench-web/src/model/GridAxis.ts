/**
 * An axis of a price grid, written as `kasko price-grid` takes it:
 * `from:to:step` (`100000:1000000:100000`) or a list (`18,21,25`).
 * (The command's own parser lives in PriceGrid.ts beside the Vega chart,
 * which a browser bundle must not pull in; this one reads the same syntax.)
 */
import { ProductCatalogue, type ProductDocument } from "@kasko/core/actuarial"
import { Result } from "effect"

export interface GridAxis {
  readonly parameter: string
  readonly values: ReadonlyArray<string>
}

/** The most cells the page prices and draws at once. */
export const MAX_GRID_CELLS = 2_500

/** The values an axis text stands for, or why it stands for none. */
export const parseAxisValues = (text: string): Result.Result<ReadonlyArray<string>, string> => {
  const stepped = /^\s*(\d+)\s*:\s*(\d+)\s*:\s*(\d+)\s*$/.exec(text)
  if (stepped === null) {
    const values = text
      .split(",")
      .map((value) => value.trim())
      .filter((value) => value !== "")
    return values.length === 0 ? Result.fail("give from:to:step or a list v1,v2,…") : Result.succeed(values)
  }
  const [from, to, step] = stepped.slice(1).map(Number) as [number, number, number]
  if (step <= 0 || to < from) return Result.fail("from ≤ to and a positive step, please")
  if ((to - from) / step > 200) return Result.fail("at most 200 steps")
  return Result.succeed(
    Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, index) => String(from + index * step))
  )
}

const SHIPPED_PARAMETERS = ProductCatalogue.shipped.document("insurance-car-leasing")!.parameters

/** The largest round step (1, 2 or 5 times a power of ten) at most `rough`. */
const roundStep = (rough: number): number => {
  const power = 10 ** Math.floor(Math.log10(Math.max(1, rough)))
  return [5, 2, 1].map((factor) => factor * power).find((step) => step <= rough) ?? power
}

/** About ten round steps across a number parameter's range: `10000:150000:10000` for 1000–150000. */
const rangeAxisText = (minimum: number, maximum: number): string => {
  const step = roundStep((maximum - minimum) / 10)
  const from = Math.ceil(minimum / step) * step
  const to = Math.floor(maximum / step) * step
  return to > from ? `${from}:${to}:${step}` : `${minimum},${maximum}`
}

/**
 * A useful first axis for a parameter of a product (of the seed products unless its parameters are given): every
 * option of an enum; a spread of the seed products' prices and drivers' ages; about ten round steps across any other
 * number's range.
 */
export const defaultAxisText = (
  parameter: string,
  parameters: ReadonlyArray<ProductDocument.ParameterDocument> = SHIPPED_PARAMETERS
): string => {
  const definition = parameters.find((candidate) => candidate.name === parameter)
  if (definition?.options !== undefined) return definition.options.map((option) => option.id).join(",")
  if (parameter === "vehicle_price") return "100000:1000000:100000"
  if (parameter === "youngest_user_age") return "18,20,21,24,25,27,28,35"
  if (definition?.type === "number" && definition.minimum !== undefined && definition.maximum !== undefined)
    return rangeAxisText(definition.minimum, definition.maximum)
  return ""
}
