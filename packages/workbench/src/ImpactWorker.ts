/**
 * A worker thread of `portfolioImpact`: it prices the chunks of the book it is
 * sent under both sides of the comparison and accumulates them, one pass at a
 * time, and answers its partial result when the pass ends. Chunks arrive as
 * bytes of whole lines (decoded here, so the main thread only splits the file)
 * or as rows (from the store).
 */
import type { Tariff } from "@kasko/core/actuarial"
import { parentPort, workerData } from "node:worker_threads"
import { ImpactAccumulator, type CaseOutcome } from "./ImpactAccumulator.js"
import { impactPricer, type PortfolioRow } from "./ImpactPricing.js"
import type { ImpactPass } from "./ImpactRun.js"
import { forEachPortfolioRow, PortfolioFormatError, type PortfolioColumns } from "./PortfolioCsv.js"
import { FACTOR_DENOMINATOR } from "./TargetFactor.js"

/** What the worker is started with. */
export interface ImpactWorkerData {
  readonly old: ReadonlyArray<Tariff.Tariff>
  readonly new: ReadonlyArray<Tariff.Tariff>
  readonly pricing_date: string
  /** The file's columns; undefined when rows come from the store. */
  readonly columns: PortfolioColumns | undefined
}

/** What the main thread sends. */
export type ImpactWorkerMessage =
  | { readonly type: "pass"; readonly pass: ImpactPass }
  | { readonly type: "text"; readonly bytes: Uint8Array; readonly first_line: number }
  | { readonly type: "rows"; readonly rows: ReadonlyArray<PortfolioRow> }
  | { readonly type: "finish" }

/** What the worker answers. */
export type ImpactWorkerAnswer =
  | { readonly type: "done" }
  | { readonly type: "state"; readonly state: ReturnType<ImpactAccumulator["state"]> }
  | { readonly type: "failed"; readonly line: number | undefined; readonly message: string }

const data = workerData as ImpactWorkerData
const port = parentPort!
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

port.on("message", (message: ImpactWorkerMessage) => {
  try {
    port.postMessage(handle(message))
  } catch (error) {
    port.postMessage({
      type: "failed",
      line: error instanceof PortfolioFormatError ? error.line : undefined,
      message: error instanceof PortfolioFormatError ? error.problem : String((error as Error).message ?? error)
    } satisfies ImpactWorkerAnswer)
  }
})
