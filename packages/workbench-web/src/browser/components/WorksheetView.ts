/**
 * The rating worksheet on the page: coverage lines (base, loadings,
 * premium, terms), charges, the annual total and both roundings — every
 * krone explained — and the same worksheet as `kasko price` prints it.
 */
import { Money, type RatingWorksheet } from "@kasko/core/actuarial"
import { worksheetTable } from "@kasko/workbench/browser"
import { h } from "../Dom.js"
import { dataTable } from "./DataTable.js"

/** Kroner from øre, grouped: `12 345.67`. */
const kroner = (ore: number): string => Money.formatKroner(ore, { thousands: " " })

/** An exact base in kroner with two to four decimals, as the text worksheet prints it. */
const exactKroner = (ore: number) => Money.formatKroner(ore, { thousands: " ", decimals: 4 })

/** Whether the worksheets' text form is shown: opened once, it stays open as the worksheet is drawn again. */
let textShown = false

/**
 * The worksheet as `kasko price` prints it, written when first shown: the
 * workbench's text table formats numbers with a new Intl formatter per
 * line, which costs more than the whole re-price of a keystroke.
 */
const worksheetText = (worksheet: RatingWorksheet.RatingWorksheet): HTMLElement => {
  const text = h("pre", { class: "worksheet-text" })
  const fill = () => {
    if (text.textContent === "") text.textContent = worksheetTable(worksheet)
  }
  if (textShown) fill()
  return h(
    "details",
    {
      class: "as-text",
      open: textShown,
      ontoggle: (event) => {
        textShown = (event.target as HTMLDetailsElement).open
        if (textShown) fill()
      }
    },
    h("summary", {}, "The worksheet as text (as kasko price prints it)"),
    text
  )
}

/** The worksheet, titled; `name` makes its export file names tell cases apart. */
export const worksheetView = (worksheet: RatingWorksheet.RatingWorksheet, name = "worksheet"): HTMLElement => {
  const { facts } = worksheet
  return h(
    "div",
    { class: "worksheet" },
    h(
      "p",
      { class: "worksheet-heading" },
      `${worksheet.product_name} · tariff ${worksheet.tariff_version} · priced ${worksheet.pricing_date} · ${facts.variant} variant · ${facts.feature} feature`
    ),
    h(
      "p",
      { class: "facts" },
      // every fact the product gives its tariff beyond the heading's product, variant and feature
      `facts: ${Object.entries(facts)
        .filter(([name]) => name !== "product_name" && name !== "variant" && name !== "feature")
        .map(([name, value]) => `${name}=${value ?? "—"}`)
        .join(" ")}`
    ),
    dataTable({
      caption: "Coverage lines",
      columns: [
        { title: "coverage" },
        { title: "base" },
        { title: "base kr", numeric: true },
        { title: "loadings" },
        { title: "premium kr", numeric: true },
        { title: "terms" }
      ],
      rows: worksheet.coverage_lines.map((line) => [
        h("span", { "data-coverage": line.coverage }, line.coverage),
        line.base_description,
        exactKroner(line.base_ore),
        line.loadings
          .map((loading) => `${loading.percent >= 0 ? "+" : ""}${loading.percent} % ${loading.loading}`)
          .join(", ") || "—",
        h("span", { "data-premium-of": line.coverage }, kroner(line.premium_ore)),
        [
          ...(line.deductible_ore === undefined ? [] : [`deductible ${kroner(line.deductible_ore)}`]),
          ...(line.limit_ore === undefined ? [] : [`limit ${kroner(line.limit_ore)}`])
        ].join(", ")
      ]),
      csvName: `${name}-coverage-lines.csv`
    }),
    dataTable({
      caption: "Charges",
      columns: [{ title: "charge" }, { title: "how" }, { title: "amount kr", numeric: true }],
      rows: worksheet.charge_lines.map((charge) => [
        charge.charge + (charge.listed_as_coverage === undefined ? "" : " (listed as a coverage)"),
        charge.description,
        kroner(charge.amount_ore)
      ]),
      csvName: `${name}-charges.csv`
    }),
    h(
      "dl",
      { class: "totals" },
      h("dt", {}, "annual total"),
      h("dd", {}, `${kroner(worksheet.annual_total_ore)} kr`),
      h("dt", {}, "annually"),
      h("dd", { "data-rounding": "annually" }, worksheet.rounding.annually),
      h("dt", {}, "monthly"),
      h("dd", { "data-rounding": "monthly" }, worksheet.rounding.monthly)
    ),
    worksheetText(worksheet)
  )
}
