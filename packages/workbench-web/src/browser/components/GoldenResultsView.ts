/**
 * The golden rows run against a version: a summary, every row with its
 * expected and actual prices, and each failure highlighted with what
 * differs (expected vs actual, item by item) and the worksheet behind it.
 */
import { stringify } from "csv-stringify/sync"
import type { GoldenRowResult } from "../../model/GoldenCheck.js"
import { h } from "../Dom.js"
import { dataTable } from "./DataTable.js"
import { worksheetView } from "./WorksheetView.js"

const actualOf = (result: GoldenRowResult, item: "annually" | "monthly") =>
  result._tag === "Rejected" ? "—" : String(result.worksheet[item])

const verdict = (result: GoldenRowResult) =>
  result._tag === "Passed" ? "✓ passes" : result._tag === "Failed" ? "✗ fails" : "✗ not priced"

export const goldenResultsView = (results: ReadonlyArray<GoldenRowResult>): HTMLElement => {
  const failed = results.filter((result) => result._tag !== "Passed").length
  // the first failure's worksheet open; the others a click away
  const firstFailure = results.findIndex((result) => result._tag === "Failed")
  const summary = `${results.length - failed} of ${results.length} golden rows pass`
  return h(
    "div",
    { class: "golden-results" },
    h(
      "p",
      { class: failed > 0 ? "summary failed" : "summary passed", "data-summary": "golden" },
      failed > 0 ? `✗ ${summary}; ${failed} fail` : `✓ ${summary}`
    ),
    dataTable({
      caption: "Golden rows",
      columns: [
        { title: "case" },
        { title: "feature" },
        { title: "expected annually", numeric: true },
        { title: "actual annually", numeric: true },
        { title: "expected monthly", numeric: true },
        { title: "actual monthly", numeric: true },
        { title: "result" }
      ],
      rows: results.map((result) => [
        h("span", { class: "case-name" }, result.row.name),
        result.row.feature,
        String(result.row.expected?.annually ?? ""),
        actualOf(result, "annually"),
        String(result.row.expected?.monthly ?? ""),
        actualOf(result, "monthly"),
        h("span", { class: "verdict" }, verdict(result))
      ]),
      rowClass: (index) => (results[index]!._tag === "Passed" ? undefined : "failed"),
      after: (index) => {
        const result = results[index]!
        if (result._tag === "Passed") return null
        if (result._tag === "Rejected") return h("p", { class: "reason" }, result.reason)
        return h(
          "div",
          { class: "failure" },
          h(
            "table",
            { class: "mismatches" },
            h("caption", {}, `What differs in ${result.row.name}`),
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", { scope: "col" }, "item"),
                h("th", { scope: "col" }, "expected"),
                h("th", { scope: "col" }, "actual")
              )
            ),
            h(
              "tbody",
              {},
              result.mismatches.map((mismatch) =>
                h(
                  "tr",
                  { "data-item": mismatch.item },
                  h("td", {}, mismatch.item),
                  h("td", { class: "expected" }, mismatch.expected),
                  h("td", { class: "actual" }, mismatch.actual)
                )
              )
            )
          ),
          h(
            "details",
            { open: index === firstFailure },
            h("summary", {}, `Worksheet of ${result.row.name}`),
            worksheetView(result.worksheet, `golden-${result.row.name}`)
          )
        )
      },
      csvName: "golden-results.csv",
      csv: () =>
        stringify(
          results.map((result) => ({
            case: result.row.name,
            result: result._tag === "Passed" ? "passes" : result._tag === "Failed" ? "fails" : "not priced",
            expected_annually: result.row.expected?.annually ?? "",
            actual_annually: result._tag === "Rejected" ? "" : result.worksheet.annually,
            expected_monthly: result.row.expected?.monthly ?? "",
            actual_monthly: result._tag === "Rejected" ? "" : result.worksheet.monthly,
            differences:
              result._tag === "Failed"
                ? result.mismatches
                    .map((mismatch) => `${mismatch.item}: ${mismatch.expected} → ${mismatch.actual}`)
                    .join("; ")
                : result._tag === "Rejected"
                  ? result.reason
                  : ""
          })),
          {
            header: true,
            columns: [
              "case",
              "result",
              "expected_annually",
              "actual_annually",
              "expected_monthly",
              "actual_monthly",
              "differences"
            ]
          }
        )
    })
  )
}
