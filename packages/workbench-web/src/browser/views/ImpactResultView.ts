/**
 * A finished impact test on the page: its figures, the rejected cases by
 * reason, a histogram and a table of the change per policy by band, the
 * segments, the largest movers, the report as the command prints it and the
 * command line that runs the same test. Every table exports as CSV, the
 * chart as SVG and PNG, the whole result as the command's CSV and JSON.
 */
import {
  impactCsv,
  impactText,
  ReportFigures,
  SEGMENT_DIMENSIONS,
  SEGMENT_TITLES,
  TOTALS_CSV_COLUMNS,
  type TotalsRow,
  totalsCsvCells
} from "@kasko/workbench/browser"
import { stringify } from "csv-stringify/sync"
import { bandHistogram } from "../components/BandHistogram.js"
import { dataTable } from "../components/DataTable.js"
import { downloadCsv, downloadText } from "../components/Downloads.js"
import { impactFigures } from "../components/ImpactFigures.js"
import { moversTable } from "../components/MoversTable.js"
import { h } from "../Dom.js"
import type { ImpactOutcome } from "../impact/ImpactSession.js"

const { count, money, percent, plural, signedMoney } = ReportFigures
const policies = (value: number) => `${count(value)} ${value === 1 ? "policy" : "policies"}`

/** The columns every row of totals shows; the capped ones only when a cap is set. */
const totalsColumns = (capped: boolean) => [
  { title: "policies", numeric: true },
  { title: "affected", numeric: true },
  { title: "exposure", numeric: true },
  { title: "before kr", numeric: true },
  { title: "after kr", numeric: true },
  { title: "change kr", numeric: true },
  { title: "change", numeric: true },
  ...(capped
    ? [
        { title: "capped kr", numeric: true },
        { title: "capped change", numeric: true }
      ]
    : [])
]

const totalsCells = (row: TotalsRow, capped: boolean): Array<string> => [
  count(row.policies),
  count(row.affected),
  row.exposure.toFixed(2),
  money(row.old_kroner),
  money(row.new_kroner),
  signedMoney(row.change_kroner),
  percent(row.change_percent),
  ...(capped ? [money(row.capped_kroner ?? 0), percent(row.capped_change_percent)] : [])
]
/** The sections of a finished test. */
export const impactResultView = (outcome: Extract<ImpactOutcome, { kind: "done" }>): Array<HTMLElement> => {
  const { result } = outcome
  const { report } = result
  const capped = report.caps !== null
  const versions = result.compared.map((entry) => `${entry.product_name} ${entry.old_version} → ${entry.new_version}`)
  const summary = h(
    "p",
    { class: "summary", "data-summary": "impact" },
    `${versions.join(", ") || "No product both versions price"}, priced on ${result.pricing_date}: ${outcome.file}, ${policies(report.totals.policies)} priced`,
    h(
      "span",
      { class: "impact-timing" },
      ` on ${plural(outcome.workers, "web worker")} in ${(outcome.milliseconds / 1000).toFixed(1)} s`
    )
  )
  const versionTitle = result.compared.map((entry) => `${entry.old_version} → ${entry.new_version}`).join(", ")
  const segmentRows = SEGMENT_DIMENSIONS.flatMap((dimension) =>
    report.segments[dimension].map((row) => ({ dimension, row }))
  )
  return [
    h(
      "section",
      { "aria-labelledby": "impact-result-title" },
      h("h3", { id: "impact-result-title" }, "Result"),
      summary,
      impactFigures(result),
      report.rejected.reasons.length === 0
        ? null
        : dataTable({
            caption: "Rejected cases by reason",
            columns: [{ title: "reason" }, { title: "cases", numeric: true }, { title: "first lines" }],
            rows: report.rejected.reasons.map((reason) => [
              reason.reason,
              count(reason.cases),
              `${reason.lines.join(", ")}${reason.cases > reason.lines.length ? ", …" : ""}`
            ]),
            rowClass: () => "failed",
            csvName: "impact-rejected.csv"
          }),
      h(
        "p",
        { class: "exports" },
        h(
          "button",
          { type: "button", onclick: () => downloadCsv("impact.csv", impactCsv(result)) },
          "Export the result as CSV"
        ),
        " ",
        h(
          "button",
          {
            type: "button",
            onclick: () =>
              downloadText("impact.json", `${JSON.stringify(result, null, 2)}\n`, "application/json;charset=utf-8")
          },
          "Export the result as JSON"
        ),
        h("span", { class: "hint" }, " as kasko tariff impact writes it with --csv and --json")
      )
    ),
    h(
      "section",
      { "aria-labelledby": "impact-bands-title" },
      h("h3", { id: "impact-bands-title" }, "Change per policy"),
      bandHistogram({
        title: `Policies by change of their annual premium, ${versionTitle || "no product compared"}`,
        bands: report.bands,
        fileName: "impact-bands"
      }),
      dataTable({
        caption: "Policies and premium by band of change",
        columns: [{ title: "band" }, ...totalsColumns(capped)],
        rows: report.bands.map((band) => [band.band, ...totalsCells(band, capped)]),
        csvName: "impact-bands.csv",
        csv: () =>
          stringify(
            report.bands.map((band) => [
              band.band,
              band.from_percent ?? "",
              band.to_percent ?? "",
              ...totalsCsvCells(band)
            ]),
            { header: true, columns: ["band", "from_percent", "to_percent", ...TOTALS_CSV_COLUMNS] }
          )
      })
    ),
    h(
      "section",
      { "aria-labelledby": "impact-segments-title" },
      h("h3", { id: "impact-segments-title" }, "By segment"),
      dataTable({
        caption: "Policies and premium by segment",
        columns: [{ title: "dimension" }, { title: "segment" }, ...totalsColumns(capped)],
        rows: segmentRows.map(({ dimension, row }) => [
          SEGMENT_TITLES[dimension],
          row.segment,
          ...totalsCells(row, capped)
        ]),
        rowClass: (index) =>
          index > 0 && segmentRows[index - 1]!.dimension !== segmentRows[index]!.dimension
            ? "dimension-start"
            : undefined,
        csvName: "impact-segments.csv",
        csv: () =>
          stringify(
            segmentRows.map(({ dimension, row }) => [dimension, row.segment, ...totalsCsvCells(row)]),
            { header: true, columns: ["dimension", "segment", ...TOTALS_CSV_COLUMNS] }
          )
      })
    ),
    h(
      "section",
      { "aria-labelledby": "impact-movers-title" },
      h("h3", { id: "impact-movers-title" }, "Largest movers"),
      report.movers.increases.length === 0 && report.movers.decreases.length === 0
        ? h("p", {}, "No policy moves.")
        : null,
      report.movers.increases.length === 0
        ? null
        : moversTable("Largest increases", report.movers.increases, "impact-increases.csv"),
      report.movers.decreases.length === 0
        ? null
        : moversTable("Largest decreases", report.movers.decreases, "impact-decreases.csv")
    ),
    h(
      "details",
      { class: "as-text" },
      h("summary", {}, "As kasko tariff impact prints it"),
      h("pre", { class: "impact-report" }, impactText(result))
    ),
    h(
      "details",
      { class: "as-command" },
      h("summary", {}, "The same test on the command line"),
      h("pre", {}, h("code", { class: "impact-command" }, outcome.command))
    )
  ]
}
