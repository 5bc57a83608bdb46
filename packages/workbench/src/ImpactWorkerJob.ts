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
import { type CaseOutcome, ImpactAccumulator, type ImpactState } from "./ImpactAccumulator.js"
import { impactPricer, type PortfolioRow } from "./ImpactPricing.js"
import type { ImpactPass } from "./ImpactRun.js"
import { forEachPortfolioRow, PortfolioFormatError, type PortfolioColumns } from "./PortfolioCsv.js"
import { FACTOR_DENOMINATOR } from "./TargetFactor.js"

/** What a worker is started with. */
export interface ImpactWorkerData {
  readonly old: ReadonlyArray<Tariff.Tariff>
  readonly new: ReadonlyArray<Tariff.Tariff>
  readonly pricing_date: string
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

/** A worker's job: the answer to each message, a failure (a malformed line, say) answered as `failed`. */
export const impactWorkerJob = (data: ImpactWorkerData): ((message: ImpactWorkerMessage) => ImpactWorkerAnswer) => {
  const decoder = new TextDecoder("utf-8", { fatal: true })
  let accumulator = new ImpactAccumulator()
  let price: (row: PortfolioRow) => CaseOutcome = impactPricer(data)
  const add = (row: PortfolioRow) => accumulator.add(price(row))

  const handle = (message: ImpactWorkerMessage): ImpactWorkerAnswer => {
    switch (message.type) {
      case "pass": {
        const { pass } = message
        accumulator = new ImpactAccumulator(pass.impact)
        price = impactPricer({
          ...data,
          ...(pass.scaling === undefined
            ? {}
            : {
                scaling: {
                  coverage: pass.scaling.coverage,
                  factor: { numerator: pass.scaling.numerator, denominator: FACTOR_DENOMINATOR }
                }
              })
        })
        return { type: "done" }
      }
      case "text": {
        let text: string
        try {
          text = decoder.decode(message.bytes)
        } catch {
          throw new PortfolioFormatError(
            message.first_line,
            "is not UTF-8 text (on this line or one of the lines after it)"
          )
        }
        forEachPortfolioRow(text, message.first_line, data.columns!, add)
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
