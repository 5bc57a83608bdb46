/**
 * Check: the linter's findings on a version (those of `kasko tariff check`)
 * and the golden tables run against it in the page, failures highlighted
 * with expected vs actual and the worksheet.
 */
import type { App } from "../App.js"
import { versionField } from "../components/Fields.js"
import { showVersionCheck } from "../components/VersionCheck.js"
import { h, redrawKeepingFocus, replaceChildren } from "../Dom.js"

export const renderCheckView = (app: App): HTMLElement => {
  const view = h("section", { class: "view check-view", "aria-labelledby": "check-title" })
  const results = h("div", { class: "check-results", "aria-live": "polite", "aria-busy": "true" })
  const draw = () =>
    redrawKeepingFocus(view, () => {
      replaceChildren(
        view,
        h("h2", { id: "check-title" }, "Check a tariff version"),
        h(
          "form",
          { class: "inline-controls", "aria-label": "Version to check", onsubmit: (event) => event.preventDefault() },
          versionField("Tariff version", "check-version", app.state.check, app.versions(), (key) => {
            app.store.update((state) => ({ ...state, check: key }))
            draw()
          })
        ),
        results
      )
      results.setAttribute("aria-busy", "true")
      void showVersionCheck(results, app.version(app.state.check), app).then(() =>
        results.setAttribute("aria-busy", "false")
      )
    })
  draw()
  return view
}
