/**
 * What an impact worker does, wherever it runs — a worker thread of
 * `kasko tariff impact`, a web worker of the workbench page: it prices the
 * chunks of the book it is sent under both sides of the comparison and
 * accumulates them, one pass at a time, and answers its partial result when
 * the pass ends. Chunks arrive as bytes of whole lines (decoded here, so the
 * sender only splits the file) or as rows (from the store). The messages are
 * plain data a structured clone carries. Browser-safe: the thread is the
 * caller's.
 */
import type { Tariff } from "@kasko/core/actuarial"
import type { CaseOutcome } from "./CaseOutcome.js"
import { catalogueOfProducts, tariffsOverCatalogue } from "./ComparisonCatalogue.js"
import { ImpactAccumulator, type ImpactState } from "./ImpactAccumulator.js"
import { impactPricer, type PortfolioRow, type TariffComparison } from "./ImpactPricing.js"
import type { ImpactPass } from "./ImpactRun.js"
import { forEachPortfolioRow, PortfolioFormatError, type PortfolioColumns } from "./PortfolioCsv.js"
import { FACTOR_DENOMINATOR } from "./TargetFactor.js"

/** What a worker is started with: the comparison (`TariffComparison`, plain data) and the file's columns. */
export interface ImpactWorkerData {
  readonly old: ReadonlyArray<Tariff.Tariff>
  readonly new: ReadonlyArray<Tariff.Tariff>
  readonly pricing_date: string
  /**
   * The product documents added to the shipped ones (`TariffComparison.products`): the worker makes their
   * catalogue, and decodes the tariffs against it again. Undefined: the shipped products.
   */
  readonly products?: ReadonlyArray<unknown>
  /** The file's columns; undefined when rows come from the store. */
  readonly columns: PortfolioColumns | undefined
}

/** What the pool sends a worker. */
export type ImpactWorkerMessage =
  | { readonly type: "pass"; readonly pass: ImpactPass }
  | { readonly type: "text"; readonly bytes: Uint8Array; readonly first_line: number }
  | { readonly type: "rows"; readonly rows: ReadonlyArray<PortfolioRow> }
  | { readonly type: "finish" }

/** What a worker answers each message with. */
export type ImpactWorkerAnswer =
  | { readonly type: "done" }
  | { readonly type: "state"; readonly state: ImpactState }
  | { readonly type: "failed"; readonly line: number | undefined; readonly message: string }

/**
 * A chunk is decoded and parsed in slices of about this many bytes, cut at line ends: a slice's text then
 * dies young, where a whole chunk's (a megabyte) is promoted to the old generation and makes work for
 * its collector (measured: bench section 11).
 */
const TEXT_SLICE_BYTES = 32 * 1024
const NEWLINE = 10

/** How many line breaks a text holds. */
const lineBreaksOf = (text: string): number => {
  let count = 0
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++
  return count
}

/** What prices the cases of a pass: the comparison's tariffs, the pass's coverage scaled by its factor. */
export const passPricer = (comparison: TariffComparison, pass: ImpactPass): ((row: PortfolioRow) => CaseOutcome) =>
  impactPricer({
    ...comparison,
    ...(pass.scaling === undefined
      ? {}
      : {
          scaling: {
            coverage: pass.scaling.coverage,
            factor: { numerator: pass.scaling.numerator, denominator: FACTOR_DENOMINATOR }
          }
        })
  })

/**
 * The comparison a worker prices: with products added, its tariffs decoded again against their catalogue — the
 * copies a worker is sent keep nothing of the catalogue they were decoded against.
 */
const comparisonOf = (data: ImpactWorkerData): ImpactWorkerData => {
  if (data.products === undefined) return data
  const catalogue = catalogueOfProducts(data.products)
  return { ...data, old: tariffsOverCatalogue(data.old, catalogue), new: tariffsOverCatalogue(data.new, catalogue) }
}

/** A worker's job: the answer to each message, a failure (a malformed line, say) answered as `failed`. */
export const impactWorkerJob = (started: ImpactWorkerData): ((message: ImpactWorkerMessage) => ImpactWorkerAnswer) => {
  const data = comparisonOf(started)
  const decoder = new TextDecoder("utf-8", { fatal: true })
  const decoded = (bytes: Uint8Array, firstLine: number): string => {
    try {
      return decoder.decode(bytes)
    } catch {
      throw new PortfolioFormatError(firstLine, "is not UTF-8 text (on this line or one of the lines after it)")
    }
  }
  let accumulator = new ImpactAccumulator()
  let price: (row: PortfolioRow) => CaseOutcome = impactPricer(data)
  const add = (row: PortfolioRow) => accumulator.add(price(row))

  const handle = (message: ImpactWorkerMessage): ImpactWorkerAnswer => {
    switch (message.type) {
      case "pass": {
        const { pass } = message
        accumulator = new ImpactAccumulator(pass.impact)
        price = passPricer(data, pass)
        return { type: "done" }
      }
      case "text": {
        const { bytes } = message
        let line = message.first_line
        let start = 0
        while (start < bytes.length) {
          const cut = start + TEXT_SLICE_BYTES < bytes.length ? bytes.indexOf(NEWLINE, start + TEXT_SLICE_BYTES) : -1
          let end = cut === -1 ? bytes.length : cut + 1
          let text = decoded(bytes.subarray(start, end), line)
          // a quoted field may hold a line break, so a slice cut at one may end inside it: the rest is read whole
          if (end < bytes.length && text.includes('"')) {
            end = bytes.length
            text = decoded(bytes.subarray(start), line)
          }
          forEachPortfolioRow(text, line, data.columns!, add)
          line += lineBreaksOf(text)
          start = end
        }
        return { type: "done" }
      }
      case "rows":
        for (const row of message.rows) add(row)
        return { type: "done" }
      case "finish":
        return { type: "state", state: accumulator.state() }
    }
  }

  return (message) => {
    try {
      return handle(message)
    } catch (error) {
      return {
        type: "failed",
        line: error instanceof PortfolioFormatError ? error.line : undefined,
        message: error instanceof PortfolioFormatError ? error.problem : String((error as Error).message ?? error)
      }
    }
  }
}
