/**
 * An impact test in the page: the portfolio file read in slices, cut into
 * chunks of whole rows and priced on web workers by the pool the command uses
 * (`ImpactWorkerPool`, each worker running `impactWorkerJob`), their partial
 * results merged exactly — so the figures are `kasko tariff impact`'s. The
 * file is never held whole: each pass reads it again, a slice at a time.
 */
import type { Tariff } from "@kasko/core/actuarial"
import {
  catalogueOfProducts,
  comparedProducts,
  defaultPricingDate,
  type ImpactOptions,
  type ImpactResult,
  ImpactStopped,
  type ImpactTarget,
  type ImpactWorkerAnswer,
  type ImpactWorkerData,
  ImpactWorkerPool,
  portfolioFeed,
  portfolioHeader,
  runImpact,
  type StartImpactWorker
} from "@kasko/workbench/browser"

export interface PortfolioImpactRunOptions {
  readonly file: Blob
  readonly old: ReadonlyArray<Tariff.Tariff>
  readonly new: ReadonlyArray<Tariff.Tariff>
  /** Undefined: NEW's effective_from, as the command. */
  readonly pricing_date: string | undefined
  readonly impact: ImpactOptions
  readonly target: ImpactTarget | undefined
  /**
   * The product documents (JSON) the page's catalogue adds to the shipped products or puts in their place, every
   * version: a book of a product added as data is read by its parameters and priced over it (`catalogueOfProducts`).
   */
  readonly products?: ReadonlyArray<unknown>
  /** Web workers (default: one per logical processor, at most MOST_WORKERS). */
  readonly workers?: number
  /** Hears how far each pass has read. */
  readonly onProgress?: (progress: ImpactProgress) => void
}

/** How far the test is: which pass (the first gives the report, the others solve the target), and its bytes read. */
export interface ImpactProgress {
  readonly pass: number
  readonly bytes_read: number
  readonly bytes: number
  readonly workers: number
}

export interface RunningImpact {
  readonly result: Promise<ImpactResult>
  /** Stops the workers: the result fails with ImpactStopped. */
  readonly stop: () => void
}

/** More workers than this only add memory: each holds the engine and a chunk or two. */
export const MOST_WORKERS = 8
const HEADER_BLOCK = 64 * 1024
const SMALLEST_CHUNK = 64 * 1024
const LARGEST_CHUNK = 1 << 20

/**
 * How long a web worker with work in flight may give no answer before the test fails: a browser that kills
 * a worker for want of memory tells the page nothing. A chunk (at most 1 MiB) takes about 50 ms on a
 * desktop core, a second on a phone twenty times slower, and the first answer waits for the worker's script
 * to load: a minute is a stuck worker, not a busy one.
 */
const WORKER_SILENCE_LIMIT_MS = 60_000

/** The web workers' script, bundled apart from the page's. */
const WORKER_SCRIPT = "/impact-worker.js"

/** The file from `start`, a slice of `size` bytes at a time. */
async function* slices(file: Blob, start: number, size: number): AsyncGenerator<Uint8Array> {
  for (let at = start; at < file.size; at += size) yield new Uint8Array(await file.slice(at, at + size).arrayBuffer())
}

/** Starts the pool's workers as module web workers, each sent what it starts with first. */
const webWorker =
  (data: ImpactWorkerData): StartImpactWorker =>
  (listeners) => {
    const worker = new Worker(WORKER_SCRIPT, { type: "module", name: "kasko impact" })
    worker.onmessage = (event: MessageEvent<ImpactWorkerAnswer>) => listeners.answer(event.data)
    worker.onerror = (event) => {
      event.preventDefault()
      listeners.error(new Error(event.message || "an impact worker could not run"))
    }
    worker.onmessageerror = () => listeners.error(new Error("an impact worker's answer could not be read"))
    worker.postMessage(data)
    return {
      post: (message, transfer) => worker.postMessage(message, transfer as Array<Transferable>),
      terminate: () => worker.terminate()
    }
  }

/**
 * Chunks small enough that even a small book keeps every worker busy, large enough that a large
 * one costs few messages: about four chunks a worker, from 64 KiB to 1 MiB.
 */
const chunkBytesFor = (size: number, workers: number) =>
  Math.min(LARGEST_CHUNK, Math.max(SMALLEST_CHUNK, Math.ceil(size / (workers * 4))))

/** Starts an impact test of the file; its result, or a PortfolioFormatError naming the line. */
export const startPortfolioImpact = (options: PortfolioImpactRunOptions): RunningImpact => {
  const workers = options.workers ?? Math.max(1, Math.min(MOST_WORKERS, globalThis.navigator?.hardwareConcurrency ?? 2))
  let pool: ImpactWorkerPool | undefined
  let stopped = false
  const run = async (): Promise<ImpactResult> => {
    const comparison = {
      old: options.old,
      new: options.new,
      pricing_date: options.pricing_date ?? defaultPricingDate(options.new),
      ...(options.products === undefined || options.products.length === 0 ? {} : { products: options.products })
    }
    comparedProducts(comparison)
    const { file } = options
    const header = await portfolioHeader(slices(file, 0, HEADER_BLOCK), catalogueOfProducts(comparison.products))
    if (stopped) throw new ImpactStopped()
    const chunkBytes = chunkBytesFor(file.size - header.bytes, workers)
    const running = new ImpactWorkerPool(workers, webWorker({ ...comparison, columns: header.columns }), {
      silence_limit_ms: WORKER_SILENCE_LIMIT_MS
    })
    pool = running
    let pass = 0
    try {
      return await runImpact(comparison, options.impact, options.target, (impactPass) => {
        pass++
        let read = header.bytes
        const report = () => options.onProgress?.({ pass, bytes_read: read, bytes: file.size, workers })
        report()
        return running.run(
          impactPass,
          portfolioFeed(
            header,
            () => slices(file, header.bytes, chunkBytes),
            (chunk) => {
              read += chunk.bytes.length
              report()
            }
          )
        )
      })
    } finally {
      await running.close()
    }
  }
  return {
    result: run(),
    stop: () => {
      stopped = true
      void pool?.close()
    }
  }
}
