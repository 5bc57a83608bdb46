/**
 * An impact test's result as people read it — aligned text tables — and as a
 * spreadsheet takes it: one CSV table, a row per total, band, segment, mover,
 * rejection reason and target, its section in the first column. Browser-safe.
 */
import { csvFormatRows } from "d3-dsv"
import type { Mover, TotalsRow } from "./ImpactReport.js"
import type { ImpactResult, TargetResult } from "./ImpactRun.js"
import { SEGMENT_DIMENSIONS, SEGMENT_TITLES } from "./ImpactSegments.js"
import { count, money, plainMoney, percent, plural, signedMoney } from "./ReportFigures.js"

/** Columns padded to their widest cell; text (the first column, and `textColumns`) left, numbers right. */
const table = (
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  textColumns: ReadonlyArray<number> = [0]
): string => {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) =>
          textColumns.includes(column) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)
        )
        .join("  ")
        .trimEnd()
    )
    .join("\n")
}

const totalsCells = (row: TotalsRow, capped: boolean): Array<string> => [
  count(row.policies),
  count(row.affected),
  row.exposure.toFixed(2),
  money(row.old_kroner),
  money(row.new_kroner),
  percent(row.change_percent),
  ...(capped ? [money(row.capped_kroner ?? 0), percent(row.capped_change_percent)] : [])
]

const TOTALS_HEADER = ["policies", "affected", "exposure", "before kr", "after kr", "change"]
const CAPPED_HEADER = ["capped kr", "capped change"]

const moverLines = (mover: Mover): string =>
  mover.moved_lines
    .map(
      (line) =>
        `${line.item} ${line.old_kroner === null ? "—" : money(line.old_kroner)} → ${line.new_kroner === null ? "—" : money(line.new_kroner)}`
    )
    .join("; ")

/**
 * What an unreachable target's factor is: the one nearest it, beyond which moving it changes nothing
 * (on a coverage's rates found by re-pricing, to six decimals).
 */
export const unreachableFactorText = (target: TargetResult): string => {
  const grid = target.on === "premium" ? "" : " of six decimals"
  return target.difference_kroner < 0
    ? `the smallest${grid} that takes the total to its highest`
    : `the largest${grid} that leaves the total at its lowest`
}

/** How the factor was found, in re-pricings of the book. */
const repricings = (target: TargetResult): string =>
  target.passes > 0
    ? `found in ${plural(target.passes, "re-pricing")} of the book`
    : target.reachable
      ? "no re-pricing: the book is already within one krone of the target"
      : "no re-pricing: the book's own pass shows the target out of reach"

/** The result as text tables: the totals, capping, the bands of change, each segment, the movers, rejections, the target. */
export const impactText = (result: ImpactResult): string => {
  const { report } = result
  const { totals } = report
  const capped = report.caps !== null
  const versions = result.compared
    .map((entry) => `${entry.product_name} ${entry.old_version} → ${entry.new_version}`)
    .join(", ")
  const lines = [
    `Rate impact of ${versions || "no product both sides price"}, both priced on ${result.pricing_date}`,
    `${count(totals.policies)} ${totals.policies === 1 ? "policy" : "policies"} priced (exposure ${totals.exposure.toFixed(2)}): ${count(totals.affected)} affected, ${count(totals.increased)} up, ${count(totals.decreased)} down, ${count(totals.unchanged)} unchanged`,
    `Premium ${money(totals.old_kroner)} kr before, ${money(totals.new_kroner)} kr after: ${signedMoney(totals.change_kroner)} kr (${percent(totals.change_percent, 4)})`
  ]
  if (report.caps !== null)
    lines.push(
      `Capped (increases at ${report.caps.increase_percent === null ? "no cap" : `+${report.caps.increase_percent} %`}, decreases at ${report.caps.decrease_percent === null ? "no cap" : `−${report.caps.decrease_percent} %`}): ${money(totals.capped_kroner ?? 0)} kr (${percent(totals.capped_change_percent, 4)}); ${count(report.caps.capped_increases)} increases and ${count(report.caps.capped_decreases)} decreases held back`
    )
  if (report.current !== null)
    lines.push(
      `Current premiums of ${count(report.current.policies)} policies: ${money(report.current.current_kroner)} kr; the old version prices them at ${money(report.current.old_kroner)} kr; ${count(report.current.differing)} differ by 0.50 kr or more`
    )
  if (report.rejected.cases > 0) {
    lines.push(`Rejected: ${plural(report.rejected.cases, "case")}, by reason:`)
    for (const reason of report.rejected.reasons)
      lines.push(
        `  ${reason.reason} — ${plural(reason.cases, "case")}, line${reason.lines.length === 1 ? "" : "s"} ${reason.lines.join(", ")}${reason.cases > reason.lines.length ? ", …" : ""}`
      )
  }
  for (const entry of report.not_compared)
    lines.push(`Not compared: ${plural(entry.cases, "case")} of ${entry.product_name} (a side has no tariff of it)`)
  const sections = [lines.join("\n")]
  const capHeader = capped ? CAPPED_HEADER : []
  sections.push(
    `Change per policy\n${table(
      ["band", ...TOTALS_HEADER, ...capHeader],
      report.bands.map((band) => [band.band, ...totalsCells(band, capped)])
    )}`
  )
  for (const dimension of SEGMENT_DIMENSIONS)
    sections.push(
      `By ${SEGMENT_TITLES[dimension]}\n${table(
        [SEGMENT_TITLES[dimension], ...TOTALS_HEADER, ...capHeader],
        report.segments[dimension].map((row) => [row.segment, ...totalsCells(row, capped)])
      )}`
    )
  // a product added as data: by its own parameters, named as its document names them
  for (const segments of report.parameter_segments ?? [])
    sections.push(
      `By ${segments.parameter} (${segments.title})\n${table(
        [segments.parameter, ...TOTALS_HEADER, ...capHeader],
        segments.rows.map((row) => [row.segment, ...totalsCells(row, capped)])
      )}`
    )
  for (const [title, movers] of [
    ["Largest increases", report.movers.increases],
    ["Largest decreases", report.movers.decreases]
  ] as const) {
    if (movers.length === 0) continue
    sections.push(
      `${title}\n${table(
        ["policy", "line", "before kr", "after kr", "change kr", "change", "worksheet lines moved"],
        movers.map((mover) => [
          mover.policy_id,
          String(mover.line),
          money(mover.old_kroner),
          money(mover.new_kroner),
          signedMoney(mover.change_kroner),
          percent(mover.change_percent),
          moverLines(mover)
        ]),
        [0, 6]
      )}`
    )
  }
  if (result.target !== null) {
    const target = result.target
    const on = target.on === "premium" ? "the whole premium" : `the rates of ${target.on}`
    const outcome = `${money(target.achieved_kroner)} kr (${percent(target.achieved_change_percent, 4)}), ${signedMoney(target.difference_kroner)} kr from the target of ${money(target.target_kroner)} kr`
    sections.push(
      [
        ...(target.reachable
          ? [
              `Target ${percent(target.target_percent, 4)} on the ${target.applies_to}: a factor of ${target.factor} on ${on}`,
              `  ${outcome}${target.within_one_krone ? "" : " — not within one krone: no factor of 15 decimals gets closer"}`
            ]
          : [
              `Target ${percent(target.target_percent, 4)} on the ${target.applies_to}: unreachable: ${target.unreachable_reason}`,
              `  nearest it, a factor of ${target.factor} on ${on}, ${unreachableFactorText(target)}: ${outcome}`
            ]),
        ...(target.uncapped_kroner === undefined
          ? []
          : [`  uncapped with the factor: ${money(target.uncapped_kroner)} kr`]),
        `  ${repricings(target)}`
      ].join("\n")
    )
  }
  return `${sections.join("\n\n")}\n`
}

/** The columns of a row of totals in the CSV exports: `kasko tariff impact --csv` and the workbench page's. */
export const TOTALS_CSV_COLUMNS = [
  "policies",
  "affected",
  "exposure",
  "old_kroner",
  "new_kroner",
  "change_kroner",
  "change_percent",
  "capped_kroner",
  "capped_change_percent"
] as const

/** A row of totals as the cells of TOTALS_CSV_COLUMNS. */
export const totalsCsvCells = (row: TotalsRow): Array<string> => [
  String(row.policies),
  String(row.affected),
  String(row.exposure),
  plainMoney(row.old_kroner),
  plainMoney(row.new_kroner),
  plainMoney(row.change_kroner),
  row.change_percent === null ? "" : String(row.change_percent),
  row.capped_kroner === undefined ? "" : plainMoney(row.capped_kroner),
  row.capped_change_percent === undefined || row.capped_change_percent === null ? "" : String(row.capped_change_percent)
]

const CSV_HEADER = ["section", "key", ...TOTALS_CSV_COLUMNS, "detail"]

const csvTotals = (section: string, key: string, row: TotalsRow, detail = ""): Array<string> => [
  section,
  key,
  ...totalsCsvCells(row),
  detail
]

/**
 * A cell of text the file gave (a policy id) or that quotes it, made safe to open in a spreadsheet:
 * one starting with = + - @, a tab or a CR would be read as a formula, so it is prefixed with '.
 */
export const spreadsheetSafe = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text)

/** The result as one CSV table: a row per total, band, segment, mover, rejection reason, product not compared and target. */
export const impactCsv = (result: ImpactResult): string => {
  const { report } = result
  const rows: Array<Array<string>> = [CSV_HEADER]
  rows.push(
    csvTotals(
      "total",
      result.compared.map((entry) => `${entry.product_name} ${entry.old_version}→${entry.new_version}`).join(" "),
      report.totals,
      `priced on ${result.pricing_date}`
    )
  )
  for (const band of report.bands) rows.push(csvTotals("band", band.band, band))
  for (const dimension of SEGMENT_DIMENSIONS)
    for (const row of report.segments[dimension]) rows.push(csvTotals(`segment ${dimension}`, row.segment, row))
  for (const segments of report.parameter_segments ?? [])
    for (const row of segments.rows) rows.push(csvTotals(`segment ${segments.parameter}`, row.segment, row))
  for (const [section, movers] of [
    ["increase", report.movers.increases],
    ["decrease", report.movers.decreases]
  ] as const)
    for (const mover of movers)
      rows.push([
        section,
        spreadsheetSafe(mover.policy_id),
        "1",
        "1",
        "",
        plainMoney(mover.old_kroner),
        plainMoney(mover.new_kroner),
        plainMoney(mover.change_kroner),
        mover.change_percent === null ? "" : String(mover.change_percent),
        "",
        "",
        `line ${mover.line}: ${moverLines(mover)}`
      ])
  for (const reason of report.rejected.reasons)
    rows.push([
      "rejected",
      spreadsheetSafe(reason.reason),
      String(reason.cases),
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      `lines ${reason.lines.join(" ")}`
    ])
  for (const entry of report.not_compared)
    rows.push(["not compared", entry.product_name, String(entry.cases), "", "", "", "", "", "", "", "", ""])
  if (result.target !== null) {
    const target = result.target
    rows.push([
      "target",
      target.on,
      "",
      "",
      "",
      plainMoney(target.old_kroner),
      plainMoney(target.achieved_kroner),
      plainMoney(target.achieved_kroner - target.old_kroner),
      target.achieved_change_percent === null ? "" : String(target.achieved_change_percent),
      "",
      "",
      `${target.reachable ? "" : `unreachable: ${target.unreachable_reason}; nearest it, `}factor ${target.factor} on the ${target.applies_to}; target ${plainMoney(target.target_kroner)}; ${target.passes} re-pricings`
    ])
  }
  return `${csvFormatRows(rows)}\n`
}
