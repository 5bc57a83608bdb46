/**
 * The two axes of a grid: which parameter each runs over and its values,
 * written as `kasko price-grid --x/--y` takes them.
 */
import { Either } from "effect"
import { PARAMETER_DEFINITIONS } from "../../model/CaseInput.js"
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
export const axesOf = (x: AxisInput, y: AxisInput): Either.Either<readonly [GridAxis, GridAxis], string> => {
  if (x.parameter === y.parameter) return Either.left("the two axes need two different parameters")
  const xValues = parseAxisValues(x.values)
  const yValues = parseAxisValues(y.values)
  if (Either.isLeft(xValues)) return Either.left(`x axis: ${xValues.left}`)
  if (Either.isLeft(yValues)) return Either.left(`y axis: ${yValues.left}`)
  if (xValues.right.length * yValues.right.length > MAX_GRID_CELLS)
    return Either.left(`at most ${MAX_GRID_CELLS} cells, please`)
  return Either.right([
    { parameter: x.parameter, values: xValues.right },
    { parameter: y.parameter, values: yValues.right }
  ] as const)
}

export const axisControls = (app: App, options: AxisControlsOptions): HTMLElement => {
  const parameters = PARAMETER_DEFINITIONS.map((definition) => [definition.name, definition.name] as const)
  const axis = (key: "x" | "y", title: string) => {
    const current = app.state[key]
    const valuesId = uniqueId(`${key}-values`)
    const hintId = `${valuesId}-hint`
    return h(
      "div",
      { class: "axis" },
      selectField(`${title} parameter`, `${key}-parameter`, current.parameter, parameters, (parameter) => {
        app.store.update((state) => ({ ...state, [key]: { parameter, values: defaultAxisText(parameter) } }))
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
