/**
 * `portfolioImpact`: an impact test on every core. The main thread only reads
 * the portfolio file and cuts it into chunks of whole lines (or pages rows from
 * a store); worker threads decode, price under both versions and accumulate
 * (`ImpactWorker.ts`), and their partial results merge exactly. At most two
 * chunks wait per worker, so memory stays flat however large the file.
 */
import type { Tariff } from "@kasko/core/actuarial"
import { createReadStream, statSync } from "node:fs"
import { open } from "node:fs/promises"
import { availableParallelism } from "node:os"
import { Worker } from "node:worker_threads"
import { ImpactAccumulator, type ImpactOptions, type ImpactState } from "./ImpactAccumulator.js"
import { comparedProducts, type PortfolioRow } from "./ImpactPricing.js"
import { type ImpactPass, type ImpactResult, type ImpactTarget, runImpact } from "./ImpactRun.js"
import type { ImpactWorkerAnswer, ImpactWorkerData, ImpactWorkerMessage } from "./ImpactWorker.js"
import {
  headerFields,
  lineBreaks,
  PortfolioFormatError,
  portfolioColumns,
  wholeRowsEnd,
  type PortfolioColumns
} from "./PortfolioCsv.js"

/** Where the book comes from: a CSV file, or pages of rows (the store's quotes), read anew on each pass. */
export type PortfolioSource =
  | { readonly file: string }
  | { readonly rows: () => AsyncIterable<ReadonlyArray<PortfolioRow>> }

export interface PortfolioImpactOptions {
  /** The old side's tariffs: per product its only version, or the one in force on the pricing date. */
  readonly old: ReadonlyArray<Tariff.Tariff>
  readonly new: ReadonlyArray<Tariff.Tariff>
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

/** The date an impact test prices on unless told: the day the newest version of the new side takes effect. */
export const defaultPricingDate = (tariffs: ReadonlyArray<Tariff.Tariff>): string =>
  tariffs
    .map((tariff) => tariff.effective_from)
    .sort()
    .at(-1) ?? "0000-01-01"

/** Re-prices the portfolio under both versions on every core, and reports the impact (and the target's factor). */
export const portfolioImpact = async (options: PortfolioImpactOptions): Promise<ImpactResult> => {
  const comparison = {
    old: options.old,
    new: options.new,
    pricing_date: options.pricing_date ?? defaultPricingDate(options.new)
  }
  comparedProducts(comparison)
  const source = options.portfolio
  const header = "file" in source ? await readHeader(source.file) : undefined
  const chunkBytes = options.chunk_bytes ?? 1 << 20
  const feed: Feed =
    header !== undefined && "file" in source
      ? async (send) => {
          for await (const chunk of fileChunks(source.file, header.bytes, header.lines + 1, chunkBytes))
            await send({ type: "text", bytes: chunk.bytes, first_line: chunk.first_line }, [chunk.bytes.buffer])
        }
      : async (send) => {
          if ("file" in source) return
          for await (const rows of source.rows()) await send({ type: "rows", rows })
        }
  const pool = new WorkerPool(options.workers ?? availableParallelism(), { ...comparison, columns: header?.columns })
  try {
    return await runImpact(comparison, options.impact ?? {}, options.target, (pass) => pool.run(pass, feed))
  } finally {
    await pool.close()
  }
}

type Send = (message: ImpactWorkerMessage, transfer?: ReadonlyArray<ArrayBuffer>) => Promise<void>
type Feed = (send: Send) => Promise<void>

/** The header's columns, how many bytes it takes (its line break included) and how many lines. */
const readHeader = async (
  file: string
): Promise<{ readonly columns: PortfolioColumns; readonly bytes: number; readonly lines: number }> => {
  const handle = await open(file, "r")
  try {
    let read = Buffer.alloc(0)
    for (;;) {
      const buffer = Buffer.alloc(64 * 1024)
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, read.length)
      read = Buffer.concat([read, buffer.subarray(0, bytesRead)])
      const end = wholeRowsEnd(read, true)
      if (end > 0 || bytesRead === 0) {
        const bytes = end > 0 ? end : read.length
        if (bytes === 0) throw new PortfolioFormatError(1, "the file is empty: a portfolio starts with its header line")
        const text = read.subarray(0, bytes).toString("utf8")
        return { columns: portfolioColumns(headerFields(text)), bytes, lines: lineBreaks(read.subarray(0, bytes)) || 1 }
      }
    }
  } finally {
    await handle.close()
  }
}

/** The file from `start` in chunks of whole rows, each with the line it starts on, in bytes the chunk owns. */
async function* fileChunks(
  file: string,
  start: number,
  firstLine: number,
  chunkBytes: number
): AsyncGenerator<{ readonly bytes: Uint8Array<ArrayBuffer>; readonly first_line: number }> {
  let line = firstLine
  let carry: Buffer = Buffer.alloc(0)
  for await (const buffer of createReadStream(file, { start, highWaterMark: chunkBytes }) as AsyncIterable<Buffer>) {
    const data = carry.length === 0 ? buffer : Buffer.concat([carry, buffer])
    const end = wholeRowsEnd(data)
    if (end === 0) {
      carry = Buffer.from(data)
      continue
    }
    const bytes = new Uint8Array(end)
    bytes.set(data.subarray(0, end))
    // counted before the bytes are sent away (transferred, they are gone from here)
    const next = line + lineBreaks(bytes)
    yield { bytes, first_line: line }
    line = next
    carry = Buffer.from(data.subarray(end))
  }
  // a last line without a line break
  if (carry.length > 0) {
    const bytes = new Uint8Array(carry.length)
    bytes.set(carry)
    yield { bytes, first_line: line }
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

/** Chunks waiting at a worker at most: one being priced, one ready. */
const IN_FLIGHT = 2

/** The worker threads of one impact test, kept for all its passes. */
class WorkerPool {
  private readonly workers: Array<{
    readonly worker: Worker
    inFlight: number
    state: ((state: ImpactState) => void) | undefined
  }>
  private failure: Error | undefined
  private wake: (() => void) | undefined
  private closing = false

  constructor(count: number, data: ImpactWorkerData) {
    if (!Number.isInteger(count) || count < 1) throw new Error(`workers must be a whole number from 1, not ${count}`)
    this.workers = Array.from({ length: count }, () => {
      const entry = {
        worker: new Worker(workerModule(), {
          workerData: data,
          // a case's garbage dies young: a small young generation keeps each thread's memory low at no cost in
          // time (1 000 000 cases on 2 workers: 321 MB peak against 400 MB with V8's default, the same CPU seconds)
          resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB }
        }),
        inFlight: 0,
        state: undefined as ((state: ImpactState) => void) | undefined
      }
      entry.worker.on("message", (answer: ImpactWorkerAnswer) => {
        if (answer.type === "done") entry.inFlight--
        else if (answer.type === "state") entry.state?.(answer.state)
        else
          this.failure ??=
            answer.line === undefined
              ? new Error(answer.message)
              : new PortfolioFormatError(answer.line, answer.message)
        this.notify()
      })
      entry.worker.on("error", (error) => {
        this.failure ??= error
        this.notify()
      })
      // a thread gone for any other reason (killed, out of memory) must not leave the pass waiting for it
      entry.worker.on("exit", (code) => {
        if (this.closing) return
        this.failure ??= new Error(`a worker thread stopped (exit code ${code}) before the impact test ended`)
        this.notify()
      })
      return entry
    })
  }

  /** Runs one pass: every worker starts it, the feed sends the book, and the workers' states are merged. */
  async run(pass: ImpactPass, feed: Feed): Promise<ImpactAccumulator> {
    for (const entry of this.workers) {
      entry.inFlight++
      entry.worker.postMessage({ type: "pass", pass } satisfies ImpactWorkerMessage)
    }
    await feed((message, transfer) => this.send(message, transfer))
    await this.until(() => this.workers.every((entry) => entry.inFlight === 0))
    const states = await Promise.all(
      this.workers.map(
        (entry) =>
          new Promise<ImpactState>((resolve) => {
            entry.state = resolve
            entry.worker.postMessage({ type: "finish" } satisfies ImpactWorkerMessage)
          })
      )
    )
    this.check()
    const merged = new ImpactAccumulator(pass.impact)
    for (const state of states) merged.merge(state)
    return merged
  }

  async close(): Promise<void> {
    this.closing = true
    await Promise.all(this.workers.map((entry) => entry.worker.terminate()))
  }

  private async send(message: ImpactWorkerMessage, transfer: ReadonlyArray<ArrayBuffer> = []): Promise<void> {
    await this.until(() => this.workers.some((entry) => entry.inFlight < IN_FLIGHT))
    const idlest = this.workers.reduce((best, entry) => (entry.inFlight < best.inFlight ? entry : best))
    idlest.inFlight++
    idlest.worker.postMessage(message, transfer as Array<ArrayBuffer>)
  }

  /** Waits until the condition holds; a worker's failure is thrown instead. */
  private async until(condition: () => boolean): Promise<void> {
    for (;;) {
      this.check()
      if (condition()) return
      await new Promise<void>((resolve) => {
        this.wake = resolve
      })
    }
  }

  private check(): void {
    if (this.failure !== undefined) throw this.failure
  }

  private notify(): void {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }
}
