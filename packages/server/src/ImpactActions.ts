/**
 * What `kasko tariff impact` and `kasko portfolio generate` do: an impact test
 * of two tariff versions over a portfolio file or the store's quotes (on every
 * core, `@kasko/workbench`'s `portfolioImpact`), printed as text, JSON or CSV;
 * and a seeded book written as CSV.
 */
import { QuoteStore } from "@kasko/core"
import { CalendarDate, ProductCatalogue, type Tariff } from "@kasko/core/actuarial"
import { generatedPortfolioLines, impactCsv, impactText, PortfolioFormatError, portfolioImpact } from "@kasko/workbench"
import { Cause, Effect, Exit, ManagedRuntime, Option } from "effect"
import { createWriteStream, statSync } from "node:fs"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { configuration } from "./AdminActions.js"
import { type CommandResult, done, failed, json, UsageError } from "./CommandResult.js"
import { messageOf } from "./FailureMessages.js"
import { commandProducts } from "./ProductFolders.js"
import { type PortfolioPageReader, storePortfolio } from "./StorePortfolio.js"
import { storesLayer } from "./Stores.js"
import { readTariffFile, tariffFilesAt } from "./TariffFiles.js"

type Arguments = Readonly<Record<string, unknown>>

/** The tariffs of one side: a tariff file, or a directory of them, of the catalogue's products. */
const tariffsOf = (
  path: string,
  side: string,
  catalogue: ProductCatalogue.Catalogue | undefined
): ReadonlyArray<Tariff.Tariff> => {
  const files = tariffFilesAt(path)
  if (files.length === 0) throw new UsageError(`${side} ${path}: no tariff file (*.json) there`)
  return files.map((file) => readTariffFile(file, `${side} `, catalogue))
}

const PERCENT = /^([+-]?\d{1,7}(?:\.\d{1,4})?)\s*%?$/

/** A per cent as the options take it: `15%`, `15`, `+3%`, `-2.5%`. */
const percentOption = (argv: Arguments, name: string): number | undefined => {
  const value = argv[name]
  if (value === undefined) return undefined
  const match = PERCENT.exec(String(value).trim())
  if (match === null) throw new UsageError(`--${name} takes a per cent like 15% or +3%, not "${String(value)}"`)
  return Number(match[1])
}

const wholeOption = (argv: Arguments, name: string, minimum: number): number | undefined => {
  const value = argv[name]
  if (value === undefined) return undefined
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < minimum)
    throw new UsageError(`--${name} takes a whole number from ${minimum}, not ${String(value)}`)
  return value
}

/** The most movers listed each way: as many as the workbench page lists, and a bound on what each worker keeps. */
const MAX_TOP_MOVERS = 1000

const bandEdges = (argv: Arguments): ReadonlyArray<number> | undefined => {
  const value = argv["bands"]
  if (value === undefined) return undefined
  const edges = String(value)
    .split(",")
    .map((edge) => PERCENT.exec(edge.trim()))
  if (edges.some((edge) => edge === null))
    throw new UsageError(`--bands takes per cents separated by commas, like -10,-5,0,5,10, not "${String(value)}"`)
  return edges.map((edge) => Number(edge![1]))
}

/** A page of the stored quotes' portfolio, read through the store's runtime. */
const storePages =
  (runtime: ManagedRuntime.ManagedRuntime<QuoteStore.QuoteStore, unknown>): PortfolioPageReader =>
  async (after, limit) => {
    const exit = await runtime.runPromiseExit(
      Effect.flatMap(QuoteStore.QuoteStore, (store) => store.listPortfolio({ after, limit }))
    )
    if (Exit.isFailure(exit)) {
      const failure = Cause.findErrorOption(exit.cause)
      throw new Error(Option.isSome(failure) ? messageOf(failure.value) : Cause.pretty(exit.cause))
    }
    return exit.value
  }

export const tariffImpact = async (argv: Arguments): Promise<CommandResult> => {
  const portfolioFile = argv["portfolio"] as string | undefined
  const fromStore = argv["from-store"] === true
  if ((portfolioFile === undefined) === !fromStore)
    throw new UsageError("name the portfolio: --portfolio <file.csv>, or --from-store for the quotes in the store")
  if (argv["json"] === true && argv["csv"] === true) throw new UsageError("--json and --csv: choose one")
  const date = argv["date"] as string | undefined
  if (date !== undefined && !CalendarDate.isCalendarDate(date))
    throw new UsageError(`--date takes YYYY-MM-DD, not "${date}"`)
  // the products of --products DIR too: the tariffs are decoded against them, the workers sent their documents
  const products = commandProducts(argv)
  const old = tariffsOf(argv["old"] as string, "OLD", products?.catalogue)
  const next = tariffsOf(argv["new"] as string, "NEW", products?.catalogue)
  const capIncrease = percentOption(argv, "cap-increase")
  const capDecrease = percentOption(argv, "cap-decrease")
  const target = percentOption(argv, "target")
  const top = wholeOption(argv, "top", 0)
  if (top !== undefined && top > MAX_TOP_MOVERS)
    throw new UsageError(`--top takes at most ${MAX_TOP_MOVERS} movers each way, not ${top}`)
  const workers = wholeOption(argv, "workers", 1)
  const edges = bandEdges(argv)
  if (capIncrease !== undefined && capIncrease < 0)
    throw new UsageError(`--cap-increase takes the largest increase, a per cent from 0, not ${capIncrease}%`)
  if (argv["factor-on"] !== undefined && target === undefined)
    throw new UsageError("--factor-on says what --target's factor is on: give --target too")
  if (portfolioFile !== undefined) {
    try {
      statSync(portfolioFile)
    } catch (error) {
      throw new UsageError(`cannot read the portfolio ${portfolioFile}: ${(error as Error).message}`)
    }
  }
  const runtime = fromStore ? ManagedRuntime.make(storesLayer(configuration())) : undefined
  try {
    const result = await portfolioImpact({
      old,
      new: next,
      ...(products === undefined ? {} : { products: products.productDocuments }),
      ...(date === undefined ? {} : { pricing_date: date }),
      portfolio: runtime === undefined ? { file: portfolioFile! } : { rows: storePortfolio(storePages(runtime)) },
      impact: {
        ...(capIncrease === undefined ? {} : { cap_increase_percent: capIncrease }),
        // a decrease cap may be written either way: -10% and 10% both hold decreases to 10 %
        ...(capDecrease === undefined ? {} : { cap_decrease_percent: Math.abs(capDecrease) }),
        ...(top === undefined ? {} : { top_movers: top }),
        ...(edges === undefined ? {} : { percent_edges: edges })
      },
      ...(target === undefined
        ? {}
        : { target: { percent: target, on: (argv["factor-on"] as string | undefined) ?? "premium" } }),
      ...(workers === undefined ? {} : { workers })
    })
    const printed = argv["json"] === true ? json(result) : argv["csv"] === true ? impactCsv(result) : impactText(result)
    const solved = result.target
    // the report is printed all the same: it says how near the book gets, and why no factor gets there
    if (solved !== null && !solved.reachable)
      return {
        ...failed(
          "tariff impact",
          `the target of ${solved.target_percent > 0 ? "+" : ""}${solved.target_percent} % is unreachable: ${solved.unreachable_reason}`
        ),
        stdout: printed
      }
    return done(printed)
  } catch (error) {
    if (error instanceof PortfolioFormatError)
      return failed("tariff impact", `the portfolio ${portfolioFile ?? "in the store"}, ${error.message}`)
    if (error instanceof UsageError) throw error
    return failed("tariff impact", messageOf(error))
  } finally {
    await runtime?.dispose()
  }
}

/** The date a generated book's ages hold on when --as-of is not given: fixed, so a seed gives one book on any day. */
export const DEFAULT_PORTFOLIO_AS_OF = "2027-01-01"

/** The names --product gives, repeated or separated by commas, each once. */
const productNamesOf = (argv: Arguments): Array<string> => [
  ...new Set(
    ((argv["product"] as Array<string> | undefined) ?? [])
      .flatMap((value) => value.split(","))
      .map((name) => name.trim())
      .filter((name) => name !== "")
  )
]

/**
 * The products of a generated book: those --product names, from the catalogue of --products DIR (the shipped
 * products alone without it); none named, undefined for the seed products' book — unless DIR replaces a seed
 * product, whose book is then drawn from its own document.
 */
const bookProducts = (argv: Arguments, names: ReadonlyArray<string>) => {
  const loaded = commandProducts(argv)
  const catalogue = loaded?.catalogue ?? ProductCatalogue.shipped
  if (names.length === 0) {
    const seed = ProductCatalogue.shipped.productNames
    const kept = seed.every((name) => catalogue.document(name) === ProductCatalogue.shipped.document(name))
    return kept ? undefined : seed.map((name) => catalogue.document(name)!)
  }
  return names.map((name) => {
    const document = catalogue.document(name)
    if (document === undefined)
      throw new UsageError(
        `--product ${name}: no such product; the products are ${catalogue.productNames.join(", ")}${loaded === undefined ? " (--products DIR adds a directory's)" : ""}`
      )
    return document
  })
}

export const generatePortfolio = async (argv: Arguments): Promise<CommandResult> => {
  const size = wholeOption(argv, "size", 0)!
  const seed = argv["seed"] as number
  if (!Number.isSafeInteger(seed)) throw new UsageError(`--seed takes a whole number, not ${String(seed)}`)
  const asOf = (argv["as-of"] as string | undefined) ?? DEFAULT_PORTFOLIO_AS_OF
  if (!CalendarDate.isCalendarDate(asOf)) throw new UsageError(`--as-of takes YYYY-MM-DD, not "${asOf}"`)
  const names = productNamesOf(argv)
  const products = bookProducts(argv, names)
  const text = portfolioText(
    generatedPortfolioLines({ size, seed, as_of: asOf, ...(products === undefined ? {} : { products }) })
  )
  const out = argv["out"] as string | undefined
  // to standard output as it drains (runCli joins it), never built whole: a million policies are ~120 MB of text
  if (out === undefined) return { ...done(""), stdoutChunks: text }
  // as the disk takes it, so a large book never piles up in memory; a file that cannot be written fails the command
  await pipeline(Readable.from(text), createWriteStream(out))
  const of = names.length === 0 ? "" : ` of ${names.join(", ")}`
  return done(
    argv["json"] === true
      ? json({ file: out, policies: size, seed, as_of: asOf, ...(names.length === 0 ? {} : { products: names }) })
      : "",
    `wrote ${size} policies${of} (seed ${seed}, ages as of ${asOf}) to ${out}\n`
  )
}

/** Lines of a book written at a time: ~60 KB of text, small enough to die young in V8's new space. */
const LINES_A_CHUNK = 500

/** A book's CSV lines as text, LINES_A_CHUNK lines a chunk. */
function* portfolioText(lines: Iterable<string>): Generator<string> {
  let batch: Array<string> = []
  for (const line of lines) {
    batch.push(line)
    if (batch.length === LINES_A_CHUNK) {
      yield `${batch.join("\n")}\n`
      batch = []
    }
  }
  if (batch.length > 0) yield `${batch.join("\n")}\n`
}
