/**
 * Price grid: a heat map of the annual premium over any two parameters,
 * the other parameters shown and editable; hovering a cell (or moving to it
 * with the arrow keys) shows its worksheet. The numbers are those of
 * `kasko price-grid`, and so is the CSV export.
 */
import { Result } from "effect"
import { gridCellsCsv, priceGridCells, type PricedCell } from "../../model/PriceGridCells.js"
import type { App } from "../App.js"
import { axesOf, axisControls } from "../components/AxisControls.js"
import { caseForm, type CaseForm } from "../components/CaseForm.js"
import { dataTable } from "../components/DataTable.js"
import { heatMap } from "../components/HeatMap.js"
import { worksheetView } from "../components/WorksheetView.js"
import { h, redrawKeepingFocus, replaceChildren } from "../Dom.js"
import { violationList } from "../components/ViolationList.js"

export const renderGridView = (app: App): HTMLElement => {
  const view = h("section", { class: "view grid-view", "aria-labelledby": "grid-title" })
  const chart = h("div", { class: "chart-slot" })
  const cellDetail = h("div", { class: "cell-detail" })
  const table = h("div", { class: "table-slot" })
  const problem = h("p", { class: "problem", role: "alert" })

  const showCell = (cell: PricedCell) => {
    const { x, y } = app.state
    replaceChildren(
      cellDetail,
      h("h3", {}, `Cell ${x.parameter}=${cell.x}, ${y.parameter}=${cell.y}`),
      cell.price._tag === "Priced"
        ? worksheetView(cell.price.worksheet, `cell-${cell.x}-${cell.y}`)
        : violationList(cell.price.violations)
    )
  }

  const drawGrid = (form: CaseForm) => {
    const axes = axesOf(app.state.x, app.state.y)
    if (Result.isFailure(axes)) {
      problem.textContent = axes.failure
      return
    }
    problem.textContent = ""
    const [x, y] = axes.success
    const base = app.state.case
    const cells = priceGridCells(base, x, y, app.tariffsFor(), app.catalogue)
    // a violation every cell shares belongs to the form's fields; the rest show per cell
    const first = cells[0]?.price
    form.showViolations(
      first?._tag === "Rejected" && cells.every((cell) => cell.price._tag === "Rejected") ? first.violations : []
    )
    const byCell = new Map(cells.map((cell) => [`${cell.x}\u0000${cell.y}`, cell]))
    replaceChildren(
      chart,
      heatMap({
        title: `${base.product_name}, ${base.feature}: annual premium by ${x.parameter} and ${y.parameter} (${base.pricing_date})`,
        xTitle: x.parameter,
        yTitle: y.parameter,
        xValues: x.values,
        yValues: y.values,
        cells: cells.map((cell) => ({
          x: cell.x,
          y: cell.y,
          value: cell.price._tag === "Priced" ? cell.price.worksheet.annually : null,
          label: cell.price._tag === "Priced" ? String(cell.price.worksheet.annually) : "—"
        })),
        scale: "sequential",
        legendTitle: "annually (kr)",
        fileName: "price-grid",
        onSelect: (cell) => showCell(byCell.get(`${cell.x}\u0000${cell.y}`)!)
      })
    )
    replaceChildren(
      table,
      h(
        "details",
        {},
        h("summary", {}, "The grid as a table"),
        dataTable({
          caption: `Annual premium (kr) by ${y.parameter} (rows) and ${x.parameter} (columns)`,
          columns: [
            { title: `${y.parameter} \\ ${x.parameter}` },
            ...x.values.map((value) => ({ title: value, numeric: true }))
          ],
          rows: y.values.map((yValue) => [
            yValue,
            ...x.values.map((xValue) => {
              const price = byCell.get(`${xValue}\u0000${yValue}`)!.price
              return price._tag === "Priced" ? String(price.worksheet.annually) : "—"
            })
          ]),
          csvName: "price-grid.csv",
          csv: () => gridCellsCsv(cells, x, y)
        })
      )
    )
    replaceChildren(
      cellDetail,
      h("p", { class: "hint" }, "Hover a cell, or focus the map and use the arrow keys, to see its worksheet.")
    )
  }

  const draw = () =>
    redrawKeepingFocus(view, () => {
      const form: CaseForm = caseForm(app, {
        without: [app.state.x.parameter, app.state.y.parameter],
        onInput: () => drawGrid(form),
        onStructureChange: draw
      })
      replaceChildren(
        view,
        h("h2", { id: "grid-title" }, "Price grid"),
        h(
          "div",
          { class: "columns" },
          h(
            "div",
            { class: "column-form" },
            form.element,
            axisControls(app, { onValues: () => drawGrid(form), onParameter: draw })
          ),
          h("div", { class: "column-result" }, problem, chart, table, cellDetail)
        )
      )
      drawGrid(form)
    })
  draw()
  return view
}
