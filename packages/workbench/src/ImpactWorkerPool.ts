/**
 * The workers of one impact test, kept for all its passes: each pass starts
 * on every worker, the book is fed to whichever has the fewest chunks waiting
 * (at most two each: one being priced, one ready — so memory stays flat
 * however large the file), and the workers' partial states are merged into one
 * accumulator, exactly. Browser-safe: what a worker is — a Node worker thread
 * for the command, a web worker for the workbench page — is the caller's
 * (`StartImpactWorker`); both run `impactWorkerJob`. A worker that gives no
 * answer for the pool's silence limit while it has work in flight fails the
 * pass (`ImpactWorkerSilent`): a web worker the browser kills for want of
 * memory sends no error event, and would leave the pass waiting for ever.
 */
import { ImpactAccumulator, type ImpactState } from "./ImpactAccumulator.js"
import type { ImpactPass } from "./ImpactRun.js"
import type { ImpactWorkerAnswer, ImpactWorkerMessage } from "./ImpactWorkerJob.js"
import { type ByteAllocator, type PortfolioChunk, portfolioChunks, type PortfolioHeader } from "./PortfolioChunks.js"
import { PortfolioFormatError } from "./PortfolioCsv.js"

/** A started worker, as the pool uses it. */
export interface ImpactWorkerPort {
  /** Posts a message, transferring the buffers named. */
  readonly post: (message: ImpactWorkerMessage, transfer: ReadonlyArray<ArrayBuffer>) => void
  readonly terminate: () => unknown
}

/** Starts a worker whose answers (and failure to run) go to the listeners given. */
export type StartImpactWorker = (listeners: {
  readonly answer: (answer: ImpactWorkerAnswer) => void
  readonly error: (error: Error) => void
}) => ImpactWorkerPort

/** Sends a message to the next free worker, once one is free. */
export type ImpactSend = (message: ImpactWorkerMessage, transfer?: ReadonlyArray<ArrayBuffer>) => Promise<void>

/** Sends the whole book, a chunk at a time. */
export type ImpactFeed = (send: ImpactSend) => Promise<void>

/** Chunks waiting at a worker at most: one being priced, one ready. */
const IN_FLIGHT = 2

/**
 * The silence limit unless the caller sets one: a chunk (at most 1 MiB) is priced in about 50 ms on a
 * desktop core, so a worker thread silent for 30 s with work in flight is stuck, not busy.
 */
const DEFAULT_SILENCE_LIMIT_MS = 30_000

/**
 * The watchdog checks this many times in a limit: a worker found silent at more checks in a row than this
 * has been silent for the whole limit. Counting checks, not reading a clock, means a main thread held still
 * (a laptop asleep, a process stopped, a page in the background) costs the workers one check at most, not a
 * failed pass: a late timer fires once.
 */
const CHECKS_PER_LIMIT = 10

/** How patient an impact worker pool is with a worker that stops answering. */
export interface ImpactWorkerPoolOptions {
  /**
   * How long a worker with a chunk, a pass or a finish in flight may give no answer before the pass fails
   * with ImpactWorkerSilent (default 30 s); a worker merely busy answers each chunk.
   */
  readonly silence_limit_ms?: number
}

/** What a pass fails with when a worker with work in flight gives no answer for the pool's silence limit. */
export class ImpactWorkerSilent extends Error {
  override readonly name = "ImpactWorkerSilent"
  constructor(readonly seconds: number) {
    super(
      `an impact worker stopped answering for ${seconds} s: it may have run out of memory; try fewer workers or a smaller file`
    )
  }
}

/** What a pool's pending pass fails with when the pool is closed under it. */
export class ImpactStopped extends Error {
  override readonly name = "ImpactStopped"
  constructor() {
    super("the impact test was stopped")
  }
}

/**
 * A feed of a portfolio file's rows after its header, in chunks of whole rows: `rows` reads the
 * file anew from the byte after the header on each pass; `onChunk` hears each chunk before it is sent;
 * `allocate` makes the chunks' buffers (see `portfolioChunks`).
 */
export const portfolioFeed =
  (
    header: PortfolioHeader,
    rows: () => AsyncIterable<Uint8Array>,
    onChunk?: (chunk: PortfolioChunk) => void,
    allocate?: ByteAllocator
  ): ImpactFeed =>
  async (send) => {
    for await (const chunk of portfolioChunks(rows(), header.lines + 1, allocate)) {
      onChunk?.(chunk)
      await send({ type: "text", bytes: chunk.bytes, first_line: chunk.first_line }, [chunk.bytes.buffer])
    }
  }

interface PooledWorker {
  readonly port: ImpactWorkerPort
  inFlight: number
  /** Waiting for the worker's state at the end of a pass. */
  state: { readonly resolve: (state: ImpactState) => void; readonly reject: (error: Error) => void } | undefined
  /** The watchdog's checks in a row that found the worker with work in flight and no answer since. */
  silentChecks: number
}

/** In Node, lets the process end though the timer runs: the worker threads keep it alive while they work. */
const unref = (timer: unknown): void => (timer as { unref?: () => void }).unref?.()

/** Whether the worker owes an answer: a pass, a chunk or its state. */
const awaitsAnswer = (entry: PooledWorker): boolean => entry.inFlight > 0 || entry.state !== undefined

/**
 * Worker threads (or the page's web workers) that price a book's chunks for an impact pass and merge their counts:
 * what `portfolioImpact` and the workbench page run an impact test on. `close` it when done.
 */
export class ImpactWorkerPool {
  private readonly workers: Array<PooledWorker> = []
  private failure: Error | undefined
  /** The lowest malformed line the workers met: it fails the pass once no chunk is left in flight. */
  private malformed: PortfolioFormatError | undefined
  private wake: (() => void) | undefined
  private readonly silenceLimitMs: number
  /** The watchdog's timer, while a pass runs. */
  private watchdog: ReturnType<typeof setInterval> | undefined
  private stopping: Promise<void> | undefined

  constructor(count: number, start: StartImpactWorker, options: ImpactWorkerPoolOptions = {}) {
    if (!Number.isInteger(count) || count < 1) throw new Error(`workers must be a whole number from 1, not ${count}`)
    const limit = options.silence_limit_ms ?? DEFAULT_SILENCE_LIMIT_MS
    if (!Number.isFinite(limit) || limit <= 0)
      throw new Error(`silence_limit_ms must be a number of milliseconds above 0, not ${limit}`)
    this.silenceLimitMs = limit
    for (let started = 0; started < count; started++) {
      const entry: Omit<PooledWorker, "port"> & { port?: ImpactWorkerPort } = {
        inFlight: 0,
        state: undefined,
        silentChecks: 0
      }
      entry.port = start({
        answer: (answer) => {
          entry.silentChecks = 0
          if (answer.type === "done") entry.inFlight--
          else if (answer.type === "state") {
            entry.state?.resolve(answer.state)
            entry.state = undefined
          } else if (answer.line === undefined) this.fail(new Error(answer.message))
          else {
            // the chunks still in flight may hold an earlier malformed line: wait for them, keep the lowest
            entry.inFlight--
            if (this.malformed === undefined || answer.line < this.malformed.line)
              this.malformed = new PortfolioFormatError(answer.line, answer.message)
          }
          this.notify()
        },
        error: (error) => this.fail(error)
      })
      this.workers.push(entry as PooledWorker)
    }
  }

  /** Runs one pass: every worker starts it, the feed sends the book, and the workers' states are merged. */
  async run(pass: ImpactPass, feed: ImpactFeed): Promise<ImpactAccumulator> {
    this.check()
    this.startWatchdog()
    let states: Array<ImpactState>
    try {
      for (const entry of this.workers) {
        entry.inFlight++
        entry.port.post({ type: "pass", pass }, [])
      }
      await feed((message, transfer) => this.send(message, transfer))
      await this.until(() => this.workers.every((entry) => entry.inFlight === 0))
      states = await Promise.all(
        this.workers.map(
          (entry) =>
            new Promise<ImpactState>((resolve, reject) => {
              entry.state = { resolve, reject }
              entry.port.post({ type: "finish" }, [])
            })
        )
      )
    } finally {
      this.stopWatchdog()
      for (const entry of this.workers) entry.state = undefined
    }
    const merged = new ImpactAccumulator(pass.impact)
    for (const state of states) merged.merge(state)
    return merged
  }

  /** Stops the workers; a pass still running fails with ImpactStopped. */
  async close(): Promise<void> {
    this.fail(new ImpactStopped())
    await this.stopWorkers()
  }

  private stopWorkers(): Promise<void> {
    this.stopping ??= Promise.all(this.workers.map((entry) => entry.port.terminate())).then(() => undefined)
    return this.stopping
  }

  /** Checks the workers CHECKS_PER_LIMIT times a silence limit until the pass ends. */
  private startWatchdog(): void {
    for (const entry of this.workers) entry.silentChecks = 0
    this.watchdog = setInterval(() => this.checkSilence(), this.silenceLimitMs / CHECKS_PER_LIMIT)
    unref(this.watchdog)
  }

  private stopWatchdog(): void {
    clearInterval(this.watchdog)
    this.watchdog = undefined
  }

  private checkSilence(): void {
    for (const entry of this.workers) {
      entry.silentChecks = awaitsAnswer(entry) ? entry.silentChecks + 1 : 0
      if (entry.silentChecks > CHECKS_PER_LIMIT) {
        // a worker that stopped answering is of no more use, and may still hold a core or memory
        this.fail(new ImpactWorkerSilent(this.silenceLimitMs / 1000))
        void this.stopWorkers()
        return
      }
    }
  }

  private async send(message: ImpactWorkerMessage, transfer: ReadonlyArray<ArrayBuffer> = []): Promise<void> {
    // after a malformed line nothing more is sent: the pass fails once the chunks in flight are answered
    await this.until(() => this.malformed === undefined && this.workers.some((entry) => entry.inFlight < IN_FLIGHT))
    const idlest = this.workers.reduce((best, entry) => (entry.inFlight < best.inFlight ? entry : best))
    idlest.inFlight++
    idlest.port.post(message, transfer)
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
    if (this.malformed !== undefined && this.workers.every((entry) => entry.inFlight === 0)) {
      this.failure = this.malformed
      throw this.failure
    }
  }

  /** The first failure ends the pass: whatever waits for the workers hears it. */
  private fail(error: Error): void {
    this.stopWatchdog()
    this.failure ??= error
    for (const entry of this.workers) entry.state?.reject(this.failure)
    this.notify()
  }

  private notify(): void {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }
}
