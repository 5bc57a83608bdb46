/** The linter's findings on a tariff version, as a table and as `kasko tariff check` prints them. */
import { ProductCatalogue } from "@kasko/core/actuarial"
import { lintReport, lintTariff, type Finding } from "@kasko/workbench/browser"
import type { TariffVersion } from "../../model/TariffVersion.js"
import { h } from "../Dom.js"
import { dataTable } from "./DataTable.js"

/** The findings on a version's text, a tariff of the catalogue's products; a text that is not JSON is one error. */
export const findingsOf = (
  version: TariffVersion,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): Array<Finding> => {
  let document: unknown
  try {
    document = JSON.parse(version.source)
  } catch (error) {
    return [{ severity: "error", message: `is not JSON: ${(error as Error).message}` }]
  }
  return lintTariff(document, catalogue)
}

export const lintFindingsView = (version: TariffVersion, findings: ReadonlyArray<Finding>): HTMLElement => {
  const errors = findings.filter((finding) => finding.severity === "error").length
  const warnings = findings.length - errors
  const summary = `${version.key}: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`
  return h(
    "div",
    { class: "lint-findings" },
    h(
      "p",
      { class: errors > 0 ? "summary failed" : "summary passed", "data-summary": "lint" },
      errors > 0 ? `✗ ${summary}` : `✓ ${summary}`
    ),
    findings.length === 0
      ? null
      : dataTable({
          caption: "Linter findings",
          columns: [{ title: "severity" }, { title: "rule" }, { title: "message" }],
          rows: findings.map((finding) => [
            finding.severity,
            finding.rule ?? "",
            h("span", { class: "finding-message" }, finding.message)
          ]),
          rowClass: (index) => (findings[index]!.severity === "error" ? "failed" : "warned"),
          csvName: "lint-findings.csv"
        }),
    findings.length === 0
      ? null
      : h(
          "details",
          { class: "as-text" },
          h("summary", {}, "As kasko tariff check prints them"),
          h("pre", { class: "lint-report" }, lintReport(findings))
        )
  )
}
