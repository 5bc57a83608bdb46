/**
 * What the actuary's commands do: `price` (one case, its worksheet as a
 * table), `price-grid` (CSV and SVG where --out says), `tariff diff` (the
 * impact of a tariff change on a set of cases) and `tariff check` (the linter).
 */
import { CalendarDate } from "@kasko/core/transport"
import { TariffDocuments } from "@kasko/core/actuarial"
import {
  diffReport,
  diffTariffs as diffTariffVersions,
  fixedParametersLine,
  gridChartSvg,
  gridCsv,
  lintReport,
  lintTariff,
  parameterLabel,
  parseAxis,
  parseGoldenTable,
  priceCase,
  priceGrid as priceTariffGrid,
  worksheetTable
} from "@kasko/workbench"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { type CommandResult, done, json, UsageError } from "./CommandResult.js"
import { commandProducts } from "./ProductFolders.js"
import { readJsonFile, readTariffFile } from "./TariffFiles.js"

type Arguments = Readonly<Record<string, unknown>>

const today = () => new Date().toISOString().slice(0, 10)

/** The case the options name, and the tariffs that price it. */
const caseOf = (argv: Arguments) => {
  const date = (argv["date"] as string | undefined) ?? today()
  if (!CalendarDate.isCalendarDate(date)) throw new UsageError(`--date takes YYYY-MM-DD, not "${date}"`)
  const parameters = Object.fromEntries(
    ((argv["param"] as Array<string> | undefined) ?? []).map((pair) => {
      const separator = pair.indexOf("=")
      if (separator <= 0) throw new UsageError(`--param takes <name>=<value>, got "${pair}"`)
      return [pair.slice(0, separator), pair.slice(separator + 1)]
    })
  )
  const files = (argv["tariff"] as Array<string> | undefined) ?? []
  const products = commandProducts(argv)
  const catalogue = products?.catalogue
  const tariffs =
    files.length === 0
      ? products === undefined
        ? TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)
        : TariffDocuments.decodeTariffs(
            TariffDocuments.catalogueTariffDocuments(products.catalogue, products.tariffDocuments),
            products.catalogue
          )
      : files.map((file) => readTariffFile(file, "", catalogue))
  const testCase = {
    name: "command line",
    product_name: argv["product"] as string,
    feature: argv["feature"] as string,
    pricing_date: date,
    parameters
  }
  return { testCase, tariffs, catalogue }
}

const writeFile = (path: string, content: string) => {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, content)
}

const axisOf = (axis: string) => {
  try {
    return parseAxis(axis)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

export const priceOneCase = async (argv: Arguments): Promise<CommandResult> => {
  const { testCase, tariffs, catalogue } = caseOf(argv)
  const worksheet = await priceCase(testCase, tariffs, argv["engine"] as "compiled" | "json-rules-engine", catalogue)
  return done(argv["json"] === true ? json(worksheet) : `${worksheetTable(worksheet)}\n`)
}

export const priceGrid = async (argv: Arguments): Promise<CommandResult> => {
  const { testCase, tariffs, catalogue } = caseOf(argv)
  const [x, y] = [axisOf(argv["x"] as string), axisOf(argv["y"] as string)]
  const out = argv["out"] as string
  const cells = await priceTariffGrid(testCase, x, y, tariffs, catalogue)
  const caption = {
    title: `${testCase.product_name}, ${testCase.feature} feature: annual premium by ${parameterLabel(x.parameter)} and ${parameterLabel(y.parameter)}`,
    subtitle: `Priced ${testCase.pricing_date} with ${fixedParametersLine(testCase.parameters, [x.parameter, y.parameter])}`
  }
  const written = { cells: cells.length, csv: `${out}.csv`, chart: `${out}.svg` }
  writeFile(written.csv, gridCsv(cells, x, y))
  writeFile(written.chart, await gridChartSvg(cells, x, y, caption))
  return done(
    argv["json"] === true ? json(written) : `priced ${written.cells} cells: wrote ${written.csv} and ${written.chart}\n`
  )
}

export const diffTariffs = async (argv: Arguments): Promise<CommandResult> => {
  const catalogue = commandProducts(argv)?.catalogue
  const [oldTariff, newTariff] = [
    readTariffFile(argv["old"] as string, "", catalogue),
    readTariffFile(argv["new"] as string, "", catalogue)
  ]
  const casesFile = argv["cases"] as string
  let cases: ReturnType<typeof parseGoldenTable>
  try {
    cases = parseGoldenTable(readFileSync(casesFile, "utf8"), catalogue)
  } catch (error) {
    throw new UsageError(`cannot read the cases ${casesFile}: ${(error as Error).message}`)
  }
  const changes = await diffTariffVersions(oldTariff, newTariff, cases, catalogue)
  const priced = cases.filter((testCase) => testCase.product_name === oldTariff.product_name).length
  return done(argv["json"] === true ? json(changes) : diffReport(changes, priced))
}

export const checkTariff = async (argv: Arguments): Promise<CommandResult> => {
  const file = argv["tariff"] as string
  const findings = lintTariff(readJsonFile(file), commandProducts(argv)?.catalogue)
  const errors = findings.filter((finding) => finding.severity === "error").length
  const exitCode = errors > 0 ? 1 : 0
  if (argv["json"] === true) return { stdout: json(findings), stderr: "", exitCode }
  const summary = `${file}: ${errors} error${errors === 1 ? "" : "s"}, ${findings.length - errors} warning${findings.length - errors === 1 ? "" : "s"}\n`
  return { stdout: findings.length === 0 ? summary : `${lintReport(findings)}\n${summary}`, stderr: "", exitCode }
}
