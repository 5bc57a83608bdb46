/**
 * The two axes of a grid: which parameter each runs over and its values,
 * written as `kasko price-grid --x/--y` takes them.
 */
import { Result } from "effect"
import { inForceOn } from "../../model/CaseInput.js"
import { defaultAxisText, MAX_GRID_CELLS, parseAxisValues, type GridAxis } from "../../model/GridAxis.js"
import type { App } from "../App.js"
import { h, uniqueId } from "../Dom.js"
import type { AxisInput } from "../WorkbenchState.js"
import { selectField } from "./Fields.js"

export interface AxisControlsOptions {
  /** After an axis' values changed: the grid must be priced again. */
  readonly onValues: () => void
  /** After an axis' parameter changed: the form (which leaves it out) must be drawn again. */
  readonly onParameter: () => void
}

/** Both axes, when both are valid and the grid is not too large; else what is wrong. */
export const axesOf = (x: AxisInput, y: AxisInput): Result.Result<readonly [GridAxis, GridAxis], string> => {
  if (x.parameter === y.parameter) return Result.fail("the two axes need two different parameters")
  const xValues = parseAxisValues(x.values)
  const yValues = parseAxisValues(y.values)
  if (Result.isFailure(xValues)) return Result.fail(`x axis: ${xValues.failure}`)
  if (Result.isFailure(yValues)) return Result.fail(`y axis: ${yValues.failure}`)
  if (xValues.success.length * yValues.success.length > MAX_GRID_CELLS)
    return Result.fail(`at most ${MAX_GRID_CELLS} cells, please`)
  return Result.succeed([
    { parameter: x.parameter, values: xValues.success },
    { parameter: y.parameter, values: yValues.success }
  ] as const)
}

export const axisControls = (app: App, options: AxisControlsOptions): HTMLElement => {
  // the case's product's parameters, each axis starting as its definition suggests
  const { product_name, pricing_date } = app.state.case
  const definitions = inForceOn(app.catalogue, pricing_date).document(product_name)?.parameters ?? []
  const parameters = definitions.map((definition) => [definition.name, definition.name] as const)
  const axis = (key: "x" | "y", title: string) => {
    const current = app.state[key]
    const valuesId = uniqueId(`${key}-values`)
    const hintId = `${valuesId}-hint`
    return h(
      "div",
      { class: "axis" },
      selectField(`${title} parameter`, `${key}-parameter`, current.parameter, parameters, (parameter) => {
        app.store.update((state) => ({
          ...state,
          [key]: { parameter, values: defaultAxisText(parameter, definitions) }
        }))
        options.onParameter()
      }),
      h(
        "div",
        { class: "field" },
        h("label", { for: valuesId }, `${title} values`),
        h("input", {
          id: valuesId,
          name: `${key}-values`,
          type: "text",
          autocomplete: "off",
          spellcheck: "false",
          value: current.values,
          "aria-describedby": hintId,
          oninput: (event) => {
            const values = (event.target as HTMLInputElement).value
            app.store.update((state) => ({ ...state, [key]: { ...state[key], values } }))
            options.onValues()
          }
        }),
        h("span", { class: "hint", id: hintId }, "from:to:step, or a list v1,v2,…")
      )
    )
  }
  return h(
    "fieldset",
    { class: "axes" },
    h("legend", {}, "Axes"),
    axis("x", "Horizontal (x)"),
    axis("y", "Vertical (y)")
  )
}
