/**
 * A version checked: the linter's findings and the golden rows of its
 * product run against it. The check view shows it for a chosen version, the
 * editor for its draft, after every edit.
 */
import { checkGoldenRows } from "../../model/GoldenCheck.js"
import type { TariffVersion } from "../../model/TariffVersion.js"
import type { App } from "../App.js"
import { h, replaceChildren, uniqueId } from "../Dom.js"
import { goldenResultsView } from "./GoldenResultsView.js"
import { findingsOf, lintFindingsView } from "./LintFindingsView.js"

/**
 * Fills `slot` with the check of a version, linted and priced with the app's catalogue; a later call supersedes an
 * earlier one still running.
 */
export const showVersionCheck = async (
  slot: HTMLElement,
  version: TariffVersion | undefined,
  app: App
): Promise<void> => {
  const catalogue = app.catalogue
  const tables = app.goldenTables()
  const token = Symbol("check")
  checks.set(slot, token)
  if (version === undefined) {
    replaceChildren(slot, h("p", {}, "No tariff version in the directory."))
    return
  }
  const [lintTitle, goldenTitle] = [uniqueId("lint-title"), uniqueId("golden-title")]
  const lint = h(
    "section",
    { "aria-labelledby": lintTitle },
    h("h3", { id: lintTitle }, "Linter"),
    lintFindingsView(version, findingsOf(version, catalogue))
  )
  const golden = h(
    "section",
    { "aria-labelledby": goldenTitle },
    h("h3", { id: goldenTitle }, "Golden tables"),
    tables.flatMap((table) =>
      table.problem === undefined
        ? []
        : [h("p", { class: "problem" }, `${table.file} cannot be read: ${table.problem}`)]
    )
  )
  if (version.tariff === undefined) {
    golden.append(
      h(
        "p",
        { class: "summary failed", "data-summary": "golden" },
        `✗ the golden rows cannot run: ${version.key} ${version.problem ?? "does not load"}`
      )
    )
  } else {
    const files = tables.map((table) => table.file).join(", ") || "none in the directory"
    golden.append(
      h("p", { class: "hint" }, `The rows of ${version.tariff.product_name} in ${files}, priced with this version.`)
    )
    const results = await checkGoldenRows(
      tables.flatMap((table) => table.rows),
      version.tariff,
      catalogue
    )
    if (checks.get(slot) !== token) return
    golden.append(goldenResultsView(results))
  }
  replaceChildren(slot, lint, golden)
}

const checks = new WeakMap<HTMLElement, symbol>()
