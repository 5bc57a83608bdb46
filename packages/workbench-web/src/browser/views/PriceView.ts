/**
 * Price a case: the form generated from the product definition, priced in
 * the page by the core's compiled engine on every keystroke; price, monthly
 * price and the full worksheet follow as you type.
 */
import { priceCaseInput } from "../../model/CasePrice.js"
import type { App } from "../App.js"
import { caseForm, type CaseForm } from "../components/CaseForm.js"
import { variantNote } from "../components/VariantNote.js"
import { worksheetView } from "../components/WorksheetView.js"
import { h, redrawKeepingFocus, replaceChildren } from "../Dom.js"
import { measureReprice } from "../Timing.js"

export const renderPriceView = (app: App): HTMLElement => {
  const summary = h("p", { class: "price-summary", "aria-live": "polite" })
  const worksheet = h("div", { class: "worksheet-slot" })
  const view = h("section", { class: "view price-view", "aria-labelledby": "price-title" })
  const variant = variantNote()

  const reprice = (form: CaseForm) => {
    variant.update(app.state.case, app.tariffsFor(), app.catalogue)
    const price = priceCaseInput(app.state.case, app.tariffsFor(), app.catalogue)
    form.showViolations(price._tag === "Rejected" ? price.violations : [])
    if (price._tag === "Rejected") {
      summary.className = "price-summary not-priced"
      summary.textContent = `Not priced: ${price.violations.length} ${price.violations.length === 1 ? "field needs" : "fields need"} attention.`
      worksheet.classList.add("stale")
      return
    }
    const { annually, monthly } = price.worksheet
    summary.className = "price-summary"
    replaceChildren(
      summary,
      h("span", { class: "figure", "data-price": "annually" }, String(annually)),
      " kr a year · ",
      h("span", { class: "figure", "data-price": "monthly" }, String(monthly)),
      " kr a month"
    )
    worksheet.classList.remove("stale")
    replaceChildren(worksheet, worksheetView(price.worksheet, "price"))
  }

  const draw = () =>
    redrawKeepingFocus(view, () => {
      const form: CaseForm = caseForm(app, {
        onInput: (event) => {
          reprice(form)
          measureReprice(event)
        },
        onStructureChange: draw
      })
      replaceChildren(
        view,
        h("h2", { id: "price-title" }, "Price a case"),
        h(
          "div",
          { class: "columns" },
          h("div", { class: "column-form" }, form.element, variant.element),
          h("div", { class: "column-result" }, summary, worksheet)
        )
      )
      reprice(form)
    })
  draw()
  return view
}
