/**
 * The actuary's commands: `kasko price` (one case, its worksheet as a table),
 * `kasko price-grid` (a grid over two parameters as CSV and SVG),
 * `kasko tariff diff` (the impact of a tariff change on a set of cases) and
 * `kasko tariff check` (the tariff linter).
 */
import { CalendarDate, TariffBook, type Tariff } from "@kasko/core"
import {
  CaseRejected,
  diffReport,
  diffTariffs,
  fixedParametersLine,
  gridChartSvg,
  gridCsv,
  lintReport,
  lintTariff,
  parseAxis,
  parameterLabel,
  parseGoldenTable,
  priceCase,
  priceGrid,
  worksheetTable
} from "@kasko/workbench"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { parseArgs, type ParseArgsConfig } from "node:util"
import type { CommandResult } from "./OfferCommand.js"

export const WORKBENCH_USAGE = `usage:
  kasko price --product <name> --feature standard|premium --param <name>=<value>… [--date YYYY-MM-DD] [--tariff <file.json>]…
              [--engine compiled|json-rules-engine]
      prices one case and prints its rating worksheet (json-rules-engine: with the reference interpreter)
  kasko price-grid --product <name> --feature standard|premium --param <name>=<value>…
                   --x <parameter>=<from>:<to>:<step> --y <parameter>=<v1>,<v2>,… [--out <path>] [--date …] [--tariff …]…
      prices a grid over two parameters and writes <path>.csv and <path>.svg (a heat map of the annual premium);
      <path> is price-grid in the current directory unless --out names another
  kasko tariff diff <old.json> <new.json> --cases <cases.csv> [--json]
      re-prices the cases under both versions and reports each changed premium in kroner and per cent
  kasko tariff check <file.json>
      decodes the tariff and reports unreachable rules, coverages with no premium and undefined parameters

--tariff replaces the shipped tariff (repeat it for several versions; the one in force on --date prices).
The cases file is a golden table (see examples/actuary-workbench); expected columns may be empty.`

class UsageError extends Error {}

/** Where `kasko price-grid` writes without --out: price-grid.csv and price-grid.svg in the current directory. */
const DEFAULT_GRID_OUT = "price-grid"

const readJson = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, "utf8"))
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`)
  }
}

const parse = <Options extends NonNullable<ParseArgsConfig["options"]>>(args: ReadonlyArray<string>, options: Options, positionals = false) => {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: positionals })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

const CASE_OPTIONS = {
  product: { type: "string" },
  feature: { type: "string" },
  param: { type: "string", multiple: true },
  date: { type: "string" },
  tariff: { type: "string", multiple: true }
} as const

const caseOf = (values: Record<string, unknown>, today: string) => {
  const product = values["product"]
  const feature = values["feature"]
  if (typeof product !== "string") throw new UsageError("--product is required")
  if (typeof feature !== "string") throw new UsageError("--feature is required")
  const date = typeof values["date"] === "string" ? values["date"] : today
  if (!CalendarDate.isCalendarDate(date)) throw new UsageError(`--date takes YYYY-MM-DD, not "${date}"`)
  const pairs = (values["param"] as Array<string> | undefined) ?? []
  const parameters = Object.fromEntries(
    pairs.map((pair) => {
      const separator = pair.indexOf("=")
      if (separator <= 0) throw new UsageError(`--param takes <name>=<value>, got "${pair}"`)
      return [pair.slice(0, separator), pair.slice(separator + 1)]
    })
  )
  const files = (values["tariff"] as Array<string> | undefined) ?? []
  let tariffs: ReadonlyArray<Tariff.Tariff>
  try {
    tariffs = TariffBook.decodeTariffs(files.length === 0 ? TariffBook.SHIPPED_TARIFF_DOCUMENTS : files.map(readJson))
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  return { testCase: { name: "command line", product_name: product, feature, pricing_date: date, parameters }, tariffs }
}

const writeFile = (path: string, content: string) => {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, content)
}

type Handler = (args: ReadonlyArray<string>, today: string) => Promise<CommandResult>

const ok = (stdout: string): CommandResult => ({ stdout, stderr: "", exitCode: 0 })

const HANDLERS: Readonly<Record<string, Handler>> = {
  price: async (args, today) => {
    const { values } = parse(args, { ...CASE_OPTIONS, engine: { type: "string" } } as const)
    const engine = values.engine ?? "compiled"
    if (engine !== "compiled" && engine !== "json-rules-engine") throw new UsageError(`--engine is compiled or json-rules-engine, not "${engine}"`)
    const { testCase, tariffs } = caseOf(values, today)
    return ok(`${worksheetTable(await priceCase(testCase, tariffs, engine))}\n`)
  },
  "price-grid": async (args, today) => {
    const { values } = parse(args, { ...CASE_OPTIONS, x: { type: "string" }, y: { type: "string" }, out: { type: "string" } } as const)
    const { testCase, tariffs } = caseOf(values, today)
    if (values.x === undefined || values.y === undefined) throw new UsageError("--x and --y are required")
    const out = values.out ?? DEFAULT_GRID_OUT
    const [x, y] = [values.x, values.y].map((axis) => {
      try {
        return parseAxis(axis)
      } catch (error) {
        throw new UsageError((error as Error).message)
      }
    }) as [ReturnType<typeof parseAxis>, ReturnType<typeof parseAxis>]
    const cells = await priceGrid(testCase, x, y, tariffs)
    const caption = {
      title: `${testCase.product_name}, ${testCase.feature} feature: annual premium by ${parameterLabel(x.parameter)} and ${parameterLabel(y.parameter)}`,
      subtitle: `Priced ${testCase.pricing_date} with ${fixedParametersLine(testCase.parameters, [x.parameter, y.parameter])}`
    }
    writeFile(`${out}.csv`, gridCsv(cells, x, y))
    writeFile(`${out}.svg`, await gridChartSvg(cells, x, y, caption))
    return ok(`${JSON.stringify({ cells: cells.length, csv: `${out}.csv`, chart: `${out}.svg` }, null, 2)}\n`)
  },
  "tariff diff": async (args) => {
    const { values, positionals } = parse(args, { cases: { type: "string" }, json: { type: "boolean" } } as const, true)
    if (positionals.length !== 2) throw new UsageError("tariff diff takes two tariff files: <old.json> <new.json>")
    if (values.cases === undefined) throw new UsageError("--cases is required")
    const [oldTariff, newTariff] = (() => {
      try {
        return TariffBook.decodeTariffs(positionals.map(readJson))
      } catch (error) {
        throw new UsageError((error as Error).message)
      }
    })() as [Tariff.Tariff, Tariff.Tariff]
    let cases
    try {
      cases = parseGoldenTable(readFileSync(values.cases, "utf8"))
    } catch (error) {
      throw new UsageError(`cannot read the cases ${values.cases}: ${(error as Error).message}`)
    }
    const changes = await diffTariffs(oldTariff, newTariff, cases)
    const priced = cases.filter((testCase) => testCase.product_name === oldTariff.product_name).length
    return ok(values.json === true ? `${JSON.stringify(changes, null, 2)}\n` : diffReport(changes, priced))
  },
  "tariff check": async (args) => {
    const { positionals } = parse(args, {}, true)
    if (positionals.length !== 1) throw new UsageError("tariff check takes one tariff file")
    const findings = lintTariff(readJson(positionals[0]!))
    const errors = findings.filter((finding) => finding.severity === "error").length
    const summary = `${positionals[0]}: ${errors} error${errors === 1 ? "" : "s"}, ${findings.length - errors} warning${findings.length - errors === 1 ? "" : "s"}\n`
    return { stdout: findings.length === 0 ? summary : `${lintReport(findings)}\n${summary}`, stderr: "", exitCode: errors > 0 ? 1 : 0 }
  }
}

/** Runs a workbench command: `price`, `price-grid`, `tariff diff`, `tariff check`. */
export const runWorkbenchCommand = async (name: string, args: ReadonlyArray<string>, today: string): Promise<CommandResult> => {
  const handler = HANDLERS[name]
  if (handler === undefined) return { stdout: "", stderr: `kasko: unknown command "${name}"\n${WORKBENCH_USAGE}\n`, exitCode: 2 }
  if (args.includes("--help")) return ok(`${WORKBENCH_USAGE}\n`)
  try {
    return await handler(args, today)
  } catch (error) {
    if (error instanceof UsageError) return { stdout: "", stderr: `kasko ${name}: ${error.message}\n${WORKBENCH_USAGE}\n`, exitCode: 2 }
    if (error instanceof CaseRejected) return { stdout: "", stderr: `kasko ${name}: ${error.message}\n`, exitCode: 1 }
    return { stdout: "", stderr: `kasko ${name}: ${(error as Error).message}\n`, exitCode: 1 }
  }
}
