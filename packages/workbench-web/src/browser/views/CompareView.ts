/**
 * Compare versions: two versions of a product, the golden cases re-priced
 * under both — a table of every changed premium, the numbers of
 * `kasko tariff diff` — and a heat map of the change of the annual premium
 * in per cent over two parameters.
 */
import type { Tariff } from "@kasko/core/actuarial"
import { diffReport, diffTariffs, type GoldenCase, ReportFigures } from "@kasko/workbench/browser"
import { stringify } from "csv-stringify/sync"
import { Result } from "effect"
import { changeCellsCsv, changeGridCells, type ChangeCell } from "../../model/ChangeGridCells.js"
import { versionsOf } from "../../model/TariffVersion.js"
import type { App } from "../App.js"
import { axesOf, axisControls } from "../components/AxisControls.js"
import { caseForm, draftMark, type CaseForm } from "../components/CaseForm.js"
import { dataTable } from "../components/DataTable.js"
import { selectField, versionField } from "../components/Fields.js"
import { heatMap } from "../components/HeatMap.js"
import { variantNote } from "../components/VariantNote.js"
import { violationList } from "../components/ViolationList.js"
import { worksheetView } from "../components/WorksheetView.js"
import { h, redrawKeepingFocus, replaceChildren } from "../Dom.js"
import { ALL_TABLES, withProduct } from "../WorkbenchState.js"

const signed = (value: number, digits: number) => `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`

export const renderCompareView = (app: App): HTMLElement => {
  const view = h("section", { class: "view compare-view", "aria-labelledby": "compare-title" })
  const changesSlot = h("div", { class: "changes", "aria-live": "polite", "aria-busy": "true" })
  const chart = h("div", { class: "chart-slot" })
  const cellDetail = h("div", { class: "cell-detail" })
  const problem = h("p", { class: "problem", role: "alert" })
  const variant = variantNote()
  let drawing = Symbol("changes")

  const chosen = (): readonly [Tariff.Tariff, Tariff.Tariff] | undefined => {
    const [before, after] = [app.version(app.state.compare.old)?.tariff, app.version(app.state.compare.new)?.tariff]
    return before === undefined || after === undefined || before.product_name !== after.product_name
      ? undefined
      : [before, after]
  }

  const cases = (): Array<GoldenCase> =>
    app
      .goldenTables()
      .filter((table) => app.state.compare.cases === ALL_TABLES || table.file === app.state.compare.cases)
      .flatMap((table) => table.rows)

  const drawChanges = async () => {
    const token = Symbol("changes")
    drawing = token
    const pair = chosen()
    if (pair === undefined) {
      replaceChildren(changesSlot, h("p", {}, "Choose two versions of one product."))
      return
    }
    changesSlot.setAttribute("aria-busy", "true")
    const rows = cases()
    const changes = await diffTariffs(pair[0], pair[1], rows, app.catalogue)
    if (token !== drawing) return
    const priced = rows.filter((row) => row.product_name === pair[0].product_name).length
    const changedCases = new Set(changes.map((change) => change.case)).size
    replaceChildren(
      changesSlot,
      h("p", { class: "summary", "data-summary": "diff" }, `${changedCases} of ${priced} cases change`),
      changes.length === 0
        ? null
        : dataTable({
            caption: "Changed premiums",
            columns: [
              { title: "case" },
              { title: "item" },
              { title: "old kr", numeric: true },
              { title: "new kr", numeric: true },
              { title: "change kr", numeric: true },
              { title: "change %", numeric: true }
            ],
            rows: changes.map((change) => [
              change.case,
              change.item,
              ReportFigures.plainMoney(change.old_kroner),
              ReportFigures.plainMoney(change.new_kroner),
              `${change.change_kroner >= 0 ? "+" : ""}${ReportFigures.plainMoney(change.change_kroner)}`,
              change.change_percent === null ? "new" : `${signed(change.change_percent, 2)} %`
            ]),
            rowClass: (index) => (changes[index]!.change_kroner > 0 ? "dearer" : "cheaper"),
            csvName: "tariff-diff.csv",
            // the columns of `kasko tariff diff --json`
            csv: () =>
              stringify(
                changes.map((change) => ({ ...change, change_percent: change.change_percent ?? "" })),
                {
                  header: true,
                  columns: ["case", "item", "old_kroner", "new_kroner", "change_kroner", "change_percent"]
                }
              )
          }),
      h(
        "details",
        { class: "as-text" },
        h("summary", {}, "As kasko tariff diff prints it"),
        h("pre", { class: "diff-report" }, diffReport(changes, priced))
      )
    )
    changesSlot.setAttribute("aria-busy", "false")
  }

  const showCell = (cell: ChangeCell) => {
    const { x, y } = app.state
    const side = (title: string, price: ChangeCell["old"]) =>
      h(
        "div",
        { class: "side" },
        h("h4", {}, title),
        price._tag === "Priced"
          ? worksheetView(price.worksheet, `${title}-${cell.x}-${cell.y}`)
          : violationList(price.violations)
      )
    replaceChildren(
      cellDetail,
      h("h3", {}, `Cell ${x.parameter}=${cell.x}, ${y.parameter}=${cell.y}`),
      cell.old._tag === "Priced" && cell.new._tag === "Priced"
        ? h(
            "p",
            { class: "cell-change" },
            `${ReportFigures.wholeMoney(cell.old.worksheet.annually)} kr → ${ReportFigures.wholeMoney(cell.new.worksheet.annually)} kr a year`,
            cell.change_percent === null ? "" : ` (${signed(cell.change_percent, 2)} %)`
          )
        : null,
      h("div", { class: "sides" }, side("old", cell.old), side("new", cell.new))
    )
  }

  const drawChart = (form: CaseForm) => {
    const pair = chosen()
    // the case as the new version prices it: the version whose answer the comparison is about
    variant.update(app.state.case, pair === undefined ? app.tariffsFor() : [pair[1]], app.catalogue)
    const axes = axesOf(app.state.x, app.state.y)
    if (pair === undefined || Result.isFailure(axes)) {
      problem.textContent = pair === undefined ? "" : Result.isFailure(axes) ? axes.failure : ""
      replaceChildren(chart)
      return
    }
    problem.textContent = ""
    const [x, y] = axes.success
    const base = app.state.case
    const cells = changeGridCells(base, x, y, pair[0], pair[1], app.catalogue)
    const first = cells[0]?.new
    form.showViolations(
      first?._tag === "Rejected" && cells.every((cell) => cell.new._tag === "Rejected") ? first.violations : []
    )
    const byCell = new Map(cells.map((cell) => [`${cell.x}\u0000${cell.y}`, cell]))
    replaceChildren(
      chart,
      heatMap({
        title: `${pair[0].product_name}, ${base.feature}: change of the annual premium, ${pair[0].version} → ${pair[1].version} (${base.pricing_date})`,
        xTitle: x.parameter,
        yTitle: y.parameter,
        xValues: x.values,
        yValues: y.values,
        cells: cells.map((cell) => ({
          x: cell.x,
          y: cell.y,
          value: cell.change_percent,
          label: cell.change_percent === null ? "—" : `${signed(cell.change_percent, 2)}`
        })),
        scale: "diverging",
        legendTitle: "change of the annual premium (%)",
        fileName: "tariff-change",
        onSelect: (cell) => showCell(byCell.get(`${cell.x}\u0000${cell.y}`)!)
      }),
      h(
        "details",
        {},
        h("summary", {}, "The change grid as a table"),
        dataTable({
          caption: `Change of the annual premium (%) by ${y.parameter} (rows) and ${x.parameter} (columns)`,
          columns: [
            { title: `${y.parameter} \\ ${x.parameter}` },
            ...x.values.map((value) => ({ title: value, numeric: true }))
          ],
          rows: y.values.map((yValue) => [
            yValue,
            ...x.values.map((xValue) => {
              const percent = byCell.get(`${xValue}\u0000${yValue}`)!.change_percent
              return percent === null ? "—" : signed(percent, 2)
            })
          ]),
          csvName: "tariff-change-grid.csv",
          csv: () => changeCellsCsv(cells, x, y)
        })
      )
    )
    replaceChildren(
      cellDetail,
      h("p", { class: "hint" }, "Hover a cell, or focus the map and use the arrow keys, to see both worksheets.")
    )
  }

  const draw = () =>
    redrawKeepingFocus(view, () => {
      const product = app.state.case.product_name
      const versions = versionsOf(app.versions(), product)
      const setCompare = (change: Partial<typeof app.state.compare>) => {
        app.store.update((state) => ({ ...state, compare: { ...state.compare, ...change } }))
        draw()
      }
      const form: CaseForm = caseForm(app, {
        without: [app.state.x.parameter, app.state.y.parameter],
        chooseVersion: false,
        onInput: () => drawChart(form),
        onStructureChange: draw
      })
      replaceChildren(
        view,
        h("h2", { id: "compare-title" }, "Compare versions"),
        h(
          "form",
          {
            class: "inline-controls",
            "aria-label": "Versions to compare",
            onsubmit: (event) => event.preventDefault()
          },
          selectField(
            "Product",
            "compare-product",
            product,
            app.catalogue.productNames.map((name) => [name, `${name}${draftMark(app, name)}`] as const),
            (value) => {
              const candidates = versionsOf(app.versions(), value)
              app.store.update((state) => ({
                ...withProduct(state, value, app.catalogue),
                compare: { ...state.compare, old: candidates.at(0)?.key ?? "", new: candidates.at(-1)?.key ?? "" }
              }))
              draw()
            }
          ),
          versionField("Old version", "old-version", app.state.compare.old, versions, (key) =>
            setCompare({ old: key })
          ),
          versionField("New version", "new-version", app.state.compare.new, versions, (key) =>
            setCompare({ new: key })
          ),
          selectField(
            "Cases",
            "cases",
            app.state.compare.cases,
            [
              [ALL_TABLES, "every golden table"] as const,
              ...app.goldenTables().map((table) => [table.file, table.file] as const)
            ],
            (cases) => setCompare({ cases })
          )
        ),
        h(
          "section",
          { "aria-labelledby": "changes-title" },
          h("h3", { id: "changes-title" }, "Changed cases"),
          changesSlot
        ),
        h(
          "section",
          { "aria-labelledby": "change-map-title" },
          h("h3", { id: "change-map-title" }, "Change in % over two parameters"),
          h(
            "div",
            { class: "columns" },
            h(
              "div",
              { class: "column-form" },
              form.element,
              axisControls(app, { onValues: () => drawChart(form), onParameter: draw }),
              variant.element
            ),
            h("div", { class: "column-result" }, problem, chart, cellDetail)
          )
        )
      )
      void drawChanges()
      drawChart(form)
    })
  draw()
  return view
}
