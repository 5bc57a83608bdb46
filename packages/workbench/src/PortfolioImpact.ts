/**
 * `portfolioImpact`: an impact test on every core. The main thread only reads
 * the portfolio file and cuts it into chunks of whole lines (`PortfolioChunks.ts`)
 * or pages rows from a store; worker threads decode, price under both versions
 * and accumulate (`ImpactWorker.ts`), and their partial results merge exactly
 * (`ImpactWorkerPool.ts`, which the workbench page runs on web workers). At
 * most two chunks wait per worker, so memory stays flat however large the file.
 */
import type { Tariff } from "@kasko/core/actuarial"
import { Buffer } from "node:buffer"
import { createReadStream, statSync } from "node:fs"
import { availableParallelism } from "node:os"
import { Worker } from "node:worker_threads"
import type { ImpactOptions } from "./ImpactAccumulator.js"
import { catalogueOfProducts } from "./ComparisonCatalogue.js"
import { comparedProducts, defaultPricingDate, type PortfolioRow, type TariffComparison } from "./ImpactPricing.js"
import { type ImpactResult, type ImpactTarget, runImpact } from "./ImpactRun.js"
import type { ImpactWorkerAnswer, ImpactWorkerData } from "./ImpactWorkerJob.js"
import { type ImpactFeed, ImpactWorkerPool, portfolioFeed, type StartImpactWorker } from "./ImpactWorkerPool.js"
import { portfolioHeader } from "./PortfolioChunks.js"

/** Where the book comes from: a CSV file, or pages of rows (the store's quotes), read anew on each pass. */
export type PortfolioSource =
  | { readonly file: string }
  | { readonly rows: () => AsyncIterable<ReadonlyArray<PortfolioRow>> }

/** An impact test to run: the old and new tariffs, the book and its products, how to count, a target, the threads. */
export interface PortfolioImpactOptions {
  /** The old side's tariffs: per product its only version, or the one in force on the pricing date. */
  readonly old: ReadonlyArray<Tariff.Tariff>
  readonly new: ReadonlyArray<Tariff.Tariff>
  /**
   * Product documents (JSON) of products added to the shipped ones, as `TariffComparison.products`: the book's
   * columns and cases are theirs too, and the worker threads price over them. Decode the tariffs against
   * `catalogueOfProducts(products)` (or the catalogue the documents were loaded into). Default: the shipped products.
   */
  readonly products?: ReadonlyArray<unknown>
  /** The date both sides price on (default: the latest effective_from of the new side). */
  readonly pricing_date?: string
  readonly portfolio: PortfolioSource
  readonly impact?: ImpactOptions
  readonly target?: ImpactTarget
  /** Worker threads (default: one per core). */
  readonly workers?: number
  /** Bytes read at a time (default 1 MiB). */
  readonly chunk_bytes?: number
}

/** Re-prices the portfolio under both versions on every core, and reports the impact (and the target's factor). */
export const portfolioImpact = async (options: PortfolioImpactOptions): Promise<ImpactResult> => {
  const comparison: TariffComparison = {
    old: options.old,
    new: options.new,
    pricing_date: options.pricing_date ?? defaultPricingDate(options.new),
    ...(options.products === undefined ? {} : { products: options.products })
  }
  comparedProducts(comparison)
  const source = options.portfolio
  // the header only: a stream read in small blocks, closed once the first row ends
  const header =
    "file" in source
      ? await portfolioHeader(
          createReadStream(source.file, { highWaterMark: 64 * 1024 }),
          catalogueOfProducts(options.products)
        )
      : undefined
  const chunkBytes = options.chunk_bytes ?? 1 << 20
  const feed: ImpactFeed =
    header !== undefined && "file" in source
      ? portfolioFeed(
          header,
          () => createReadStream(source.file, { start: header.bytes, highWaterMark: chunkBytes }),
          undefined,
          (length) => Buffer.allocUnsafeSlow(length) as Uint8Array<ArrayBuffer>
        )
      : async (send) => {
          if ("file" in source) return
          for await (const rows of source.rows()) await send({ type: "rows", rows })
        }
  const pool = new ImpactWorkerPool(
    options.workers ?? availableParallelism(),
    workerThread({ ...comparison, columns: header?.columns })
  )
  try {
    return await runImpact(comparison, options.impact ?? {}, options.target, (pass) => pool.run(pass, feed))
  } finally {
    await pool.close()
  }
}

const YOUNG_GENERATION_MB = 8

/**
 * The worker's module: the build's bundle of it (scripts/bundle-worker.mjs: it starts in tens of milliseconds,
 * not the ~0.3 s of loading Effect module by module) when it is newer than the compiled worker, else the latter.
 */
const workerModule = (): URL => {
  const compiled = new URL("./ImpactWorker.js", import.meta.url)
  const bundled = new URL("../worker/ImpactWorker.mjs", import.meta.url)
  try {
    return statSync(bundled).mtimeMs >= statSync(compiled).mtimeMs ? bundled : compiled
  } catch {
    return compiled
  }
}

/** Starts the pool's workers as worker threads running ImpactWorker.ts. */
const workerThread =
  (data: ImpactWorkerData): StartImpactWorker =>
  (listeners) => {
    let terminating = false
    const worker = new Worker(workerModule(), {
      workerData: data,
      // a case's garbage dies young: a small young generation keeps each thread's memory low at no cost in
      // time (1 000 000 cases on 2 workers: 321 MB peak against 400 MB with V8's default, the same CPU seconds)
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB }
    })
    worker.on("message", (answer: ImpactWorkerAnswer) => listeners.answer(answer))
    worker.on("error", listeners.error)
    // a thread gone for any other reason (killed, out of memory) must not leave the pass waiting for it
    worker.on("exit", (code) => {
      if (!terminating)
        listeners.error(new Error(`a worker thread stopped (exit code ${code}) before the impact test ended`))
    })
    return {
      post: (message, transfer) => worker.postMessage(message, transfer as Array<ArrayBuffer>),
      terminate: () => {
        terminating = true
        return worker.terminate()
      }
    }
  }
