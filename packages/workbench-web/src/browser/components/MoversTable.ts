/**
 * The largest movers of an impact test as a table: each policy's premium
 * before and after, its change, and the worksheet lines that moved it; its
 * CSV export carries the amounts as plain numbers and the case's parameters.
 */
import { type Mover, ReportFigures } from "@kasko/workbench/browser"
import { stringify } from "csv-stringify/sync"
import { h } from "../Dom.js"
import { dataTable } from "./DataTable.js"

const { money, percent, plainMoney, signedMoney } = ReportFigures

const moverLines = (mover: Mover) =>
  h(
    "ul",
    { class: "moved-lines" },
    mover.moved_lines.map((line) =>
      h(
        "li",
        {},
        h("span", { class: "moved-item" }, line.item),
        ` ${line.old_kroner === null ? "—" : money(line.old_kroner)} → ${line.new_kroner === null ? "—" : money(line.new_kroner)}`,
        line.old_explanation === line.new_explanation
          ? null
          : h(
              "span",
              { class: "hint" },
              ` (${line.old_explanation ?? "not there"} → ${line.new_explanation ?? "not there"})`
            )
      )
    )
  )

/** The movers of one direction, largest first. */
export const moversTable = (title: string, movers: ReadonlyArray<Mover>, csvName: string) =>
  dataTable({
    caption: title,
    columns: [
      { title: "policy" },
      { title: "line", numeric: true },
      { title: "product" },
      { title: "feature" },
      { title: "before kr", numeric: true },
      { title: "after kr", numeric: true },
      { title: "change kr", numeric: true },
      { title: "change", numeric: true },
      { title: "worksheet lines moved" }
    ],
    rows: movers.map((mover) => [
      mover.policy_id,
      String(mover.line),
      mover.product_name,
      mover.feature,
      money(mover.old_kroner),
      money(mover.new_kroner),
      signedMoney(mover.change_kroner),
      percent(mover.change_percent),
      moverLines(mover)
    ]),
    rowClass: (index) => (movers[index]!.change_kroner > 0 ? "dearer" : "cheaper"),
    csvName,
    csv: () =>
      stringify(
        movers.map((mover) => [
          mover.policy_id,
          mover.line,
          mover.product_name,
          mover.feature,
          plainMoney(mover.old_kroner),
          plainMoney(mover.new_kroner),
          plainMoney(mover.change_kroner),
          mover.change_percent ?? "",
          mover.moved_lines
            .map((line) => `${line.item} ${line.old_kroner ?? "—"} → ${line.new_kroner ?? "—"}`)
            .join("; "),
          JSON.stringify(mover.parameters)
        ]),
        {
          header: true,
          columns: [
            "policy_id",
            "line",
            "product_name",
            "feature",
            "old_kroner",
            "new_kroner",
            "change_kroner",
            "change_percent",
            "moved_lines",
            "parameters"
          ]
        }
      )
  })
