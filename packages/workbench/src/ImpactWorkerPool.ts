/**
 * The workers of one impact test, kept for all its passes: each pass starts
 * on every worker, the book is fed to whichever has the fewest chunks waiting
 * (at most two each: one being priced, one ready — so memory stays flat
 * however large the file), and the workers' partial states are merged into one
 * accumulator, exactly. Browser-safe: what a worker is — a Node worker thread
 * for the command, a web worker for the workbench page — is the caller's
 * (`StartImpactWorker`); both run `impactWorkerJob`.
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
}

export class ImpactWorkerPool {
  private readonly workers: Array<PooledWorker> = []
  private failure: Error | undefined
  /** The lowest malformed line the workers met: it fails the pass once no chunk is left in flight. */
  private malformed: PortfolioFormatError | undefined
  private wake: (() => void) | undefined

  constructor(count: number, start: StartImpactWorker) {
    if (!Number.isInteger(count) || count < 1) throw new Error(`workers must be a whole number from 1, not ${count}`)
    for (let started = 0; started < count; started++) {
      const entry: Omit<PooledWorker, "port"> & { port?: ImpactWorkerPort } = { inFlight: 0, state: undefined }
      entry.port = start({
        answer: (answer) => {
          if (answer.type === "done") entry.inFlight--
          else if (answer.type === "state") entry.state?.resolve(answer.state)
          else if (answer.line === undefined) this.fail(new Error(answer.message))
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
    for (const entry of this.workers) {
      entry.inFlight++
      entry.port.post({ type: "pass", pass }, [])
    }
    await feed((message, transfer) => this.send(message, transfer))
    await this.until(() => this.workers.every((entry) => entry.inFlight === 0))
    const states = await Promise.all(
      this.workers.map(
        (entry) =>
          new Promise<ImpactState>((resolve, reject) => {
            entry.state = { resolve, reject }
            entry.port.post({ type: "finish" }, [])
          })
      )
    )
    for (const entry of this.workers) entry.state = undefined
    const merged = new ImpactAccumulator(pass.impact)
    for (const state of states) merged.merge(state)
    return merged
  }

  /** Stops the workers; a pass still running fails with ImpactStopped. */
  async close(): Promise<void> {
    this.fail(new ImpactStopped())
    await Promise.all(this.workers.map((entry) => entry.port.terminate()))
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
