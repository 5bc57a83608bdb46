/** A table with a caption and a CSV export of exactly what it shows (or of the data behind it). */
import { stringify } from "csv-stringify/sync"
import { h, type Child } from "../Dom.js"
import { downloadCsv } from "./Downloads.js"

export interface Column {
  readonly title: string
  readonly numeric?: boolean
}

export interface DataTableOptions {
  readonly caption: string
  readonly columns: ReadonlyArray<Column>
  /** One array of cells per row; a cell is text or an element. */
  readonly rows: ReadonlyArray<ReadonlyArray<Child>>
  /** A class per row (`failed`…), when rows differ. */
  readonly rowClass?: (index: number) => string | undefined
  /** Rows drawn under a row (details of a failure), spanning the table. */
  readonly after?: (index: number) => Child
  readonly csvName: string
  /** The CSV, when it is not the cells' text (the CLI's columns, say). */
  readonly csv?: () => string
}

const textOf = (cell: Child): string => {
  if (cell === null || cell === undefined || cell === false) return ""
  if (Array.isArray(cell)) return cell.map(textOf).join("")
  if (cell instanceof Node) return cell.textContent ?? ""
  return String(cell)
}

/** The cells' text as CSV. */
export const tableCsv = (columns: ReadonlyArray<Column>, rows: ReadonlyArray<ReadonlyArray<Child>>): string =>
  stringify([columns.map((column) => column.title), ...rows.map((row) => row.map(textOf))])

export const dataTable = (options: DataTableOptions): HTMLElement =>
  h(
    "figure",
    { class: "data-table" },
    h(
      "div",
      { class: "table-scroll", tabindex: 0, role: "region", "aria-label": options.caption },
      h(
        "table",
        {},
        h("caption", {}, options.caption),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            options.columns.map((column) =>
              h("th", { scope: "col", class: column.numeric === true ? "numeric" : undefined }, column.title)
            )
          )
        ),
        h(
          "tbody",
          {},
          options.rows.map((row, index) => [
            h(
              "tr",
              { class: options.rowClass?.(index) },
              row.map((cell, column) =>
                h("td", { class: options.columns[column]?.numeric === true ? "numeric" : undefined }, cell)
              )
            ),
            (() => {
              const after = options.after?.(index)
              return after === undefined || after === null || after === false
                ? null
                : h("tr", { class: "row-details" }, h("td", { colspan: options.columns.length }, after))
            })()
          ])
        )
      )
    ),
    h(
      "figcaption",
      {},
      h(
        "button",
        {
          type: "button",
          onclick: () => downloadCsv(options.csvName, options.csv?.() ?? tableCsv(options.columns, options.rows))
        },
        `Export ${options.caption} as CSV`
      )
    )
  )
