/** The rating worksheet as a table an actuary reads: lines, loadings, charges, rounding. */
import { Money, type RatingWorksheet } from "@kasko/core/actuarial"

const kroner = (ore: number) => Money.formatKroner(ore, { thousands: " " })
/** An exact amount (a base before rounding): its hundredths of an øre too. */
const exactKroner = (ore: number) => Money.formatKroner(ore, { thousands: " ", decimals: 4 })

const table = (
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  rightAligned: ReadonlyArray<number>
): string => {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
  const format = (row: ReadonlyArray<string>) =>
    row
      .map((cell, column) =>
        rightAligned.includes(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)
      )
      .join("  ")
      .trimEnd()
  return [format(header), widths.map((width) => "─".repeat(width)).join("  "), ...rows.map(format)].join("\n")
}

/** The worksheet rendered as text. */
export const worksheetTable = (worksheet: RatingWorksheet.RatingWorksheet): string => {
  const { facts } = worksheet
  const heading = `${worksheet.product_name} · tariff ${worksheet.tariff_version} · priced ${worksheet.pricing_date} · ${facts.variant} variant · ${facts.feature} feature`
  // every fact the product gives its tariff beyond the heading's product, variant and feature, in the worksheet's order
  const factLine = `facts: ${Object.entries(facts)
    .filter(([name]) => name !== "product_name" && name !== "variant" && name !== "feature")
    .map(([name, value]) => `${name}=${value ?? "—"}`)
    .join(" ")}`
  const lines = table(
    ["coverage", "base", "base kr", "loadings", "premium kr", "terms"],
    worksheet.coverage_lines.map((line) => [
      line.coverage,
      line.base_description,
      exactKroner(line.base_ore),
      line.loadings
        .map((loading) => `${loading.percent >= 0 ? "+" : ""}${loading.percent} % ${loading.loading}`)
        .join(", ") || "—",
      kroner(line.premium_ore),
      [
        ...(line.deductible_ore === undefined ? [] : [`deductible ${kroner(line.deductible_ore)}`]),
        ...(line.limit_ore === undefined ? [] : [`limit ${kroner(line.limit_ore)}`])
      ].join(", ")
    ]),
    [2, 4]
  )
  const charges = table(
    ["charge", "how", "amount kr"],
    worksheet.charge_lines.map((charge) => [
      charge.charge + (charge.listed_as_coverage === undefined ? "" : " (listed as a coverage)"),
      charge.description,
      kroner(charge.amount_ore)
    ]),
    [2]
  )
  return [
    heading,
    factLine,
    "",
    lines,
    "",
    charges,
    "",
    `annual total  ${kroner(worksheet.annual_total_ore)} kr`,
    `annually      ${worksheet.rounding.annually}`,
    `monthly       ${worksheet.rounding.monthly}`
  ].join("\n")
}
