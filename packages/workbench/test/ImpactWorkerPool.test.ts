/**
 * The impact's worker pool over workers of any kind (here: the worker's job in this thread,
 * behind structured clones, as a thread or a web worker would get it): its passes merge into the
 * report one accumulator gives, a malformed line fails the pass with its line, closing the
 * pool under a pass ends that pass, and a worker that stops answering fails the pass after the
 * pool's silence limit, while a slow one that answers does not.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { ImpactAccumulator } from "../src/ImpactAccumulator.js"
import { impactPricer, type PortfolioRow, type TariffComparison } from "../src/ImpactPricing.js"
import { type ImpactWorkerData, impactWorkerJob, type ImpactWorkerMessage } from "../src/ImpactWorkerJob.js"
import {
  type ImpactFeed,
  ImpactStopped,
  ImpactWorkerPool,
  ImpactWorkerSilent,
  portfolioFeed,
  type StartImpactWorker
} from "../src/ImpactWorkerPool.js"
import { portfolioHeader } from "../src/PortfolioChunks.js"
import { forEachPortfolioRow, PortfolioFormatError } from "../src/PortfolioCsv.js"
import { catalogueOfProducts } from "../src/ComparisonCatalogue.js"
import { runImpact } from "../src/ImpactRun.js"
import { generatedPortfolioLines } from "../src/PortfolioGenerator.js"
import {
  generatedBook,
  leasingV1,
  PRICING_DATE,
  rebalance,
  standaloneV1,
  VAN_PRODUCTS,
  vanV1,
  vanV2
} from "./support.js"

const comparison: TariffComparison = {
  old: [leasingV1, standaloneV1],
  new: [rebalance, standaloneV1],
  pricing_date: PRICING_DATE
}

interface FakeWorkers {
  /** Grows by one entry a worker started, and is marked when that worker is terminated. */
  readonly started?: Array<"started" | "terminated">
  /** The nth worker started answers after delays[n] ms (0 unless given): a slow worker, as a busy core makes one. */
  readonly delays?: ReadonlyArray<number>
  /** Whether the nth worker never answers this message, as a worker the browser killed without a word. */
  readonly swallows?: (worker: number, message: ImpactWorkerMessage) => boolean
  /** What the nth worker waits for before it answers anything: the order of two workers' answers, pinned. */
  readonly holdsUntil?: (worker: number) => Promise<void>
  /** Told when the nth worker has answered. */
  readonly answered?: (worker: number) => void
}

/** Workers in this thread: each message cloned and answered on a later turn, as across threads. */
const inThisThread =
  (
    data: ImpactWorkerData,
    {
      started = [],
      delays = [],
      swallows = () => false,
      holdsUntil = () => Promise.resolve(),
      answered = () => undefined
    }: FakeWorkers = {}
  ): StartImpactWorker =>
  (listeners) => {
    const answer = impactWorkerJob(structuredClone(data))
    let terminated = false
    const worker = started.length
    const delay = delays[worker] ?? 0
    let silent = false
    started.push("started")
    return {
      post: (message) => {
        // a worker that stops answering stays silent: it answers none of the messages after either
        silent ||= swallows(worker, message)
        if (silent) return
        const copy = structuredClone(message)
        void holdsUntil(worker).then(() =>
          setTimeout(() => {
            if (terminated) return
            listeners.answer(structuredClone(answer(copy)))
            answered(worker)
          }, delay)
        )
      },
      terminate: () => {
        terminated = true
        started[worker] = "terminated"
      }
    }
  }

async function* blocksOf(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size)
}

const bookBytes = (text: string) => new TextEncoder().encode(text)

describe("the impact worker pool", () => {
  const book = generatedBook(1_500, 11)
  const text = `${book.header}\n${book.body}`

  it("merges its workers' passes into what one accumulator reports", async () => {
    const bytes = bookBytes(text)
    const header = await portfolioHeader(blocksOf(bytes, 4096))
    const started: Array<"started" | "terminated"> = []
    const pool = new ImpactWorkerPool(3, inThisThread({ ...comparison, columns: header.columns }, { started }))
    const chunks: Array<number> = []
    const impact = { cap_increase_percent: 6, cap_decrease_percent: 3, top_movers: 5 }
    const merged = await pool.run(
      { impact },
      portfolioFeed(
        header,
        () => blocksOf(bytes.subarray(header.bytes), 3000),
        (chunk) => chunks.push(chunk.first_line)
      )
    )
    await pool.close()
    expect(started).toHaveLength(3)
    expect(chunks.length).toBeGreaterThan(10)

    const alone = new ImpactAccumulator(impact)
    const price = impactPricer(comparison)
    forEachPortfolioRow(book.body, 2, header.columns, (row: PortfolioRow) => alone.add(price(row)))
    expect(merged.finish()).toEqual(alone.finish())
  })

  it("prices a book of a product added as data as the page would: its documents in the job, each worker making the catalogue", async () => {
    // what the workbench page does: the comparison carries the documents, the header and the job follow it
    const vanComparison: TariffComparison = {
      old: [vanV1],
      new: [vanV2],
      pricing_date: PRICING_DATE,
      products: VAN_PRODUCTS
    }
    const catalogue = catalogueOfProducts(vanComparison.products)
    const products = [catalogue.document("insurance-van-business")!]
    const lines = [...generatedPortfolioLines({ size: 1_200, seed: 5, as_of: PRICING_DATE, products })]
    const bytes = bookBytes(`${lines.join("\n")}\n`)
    const header = await portfolioHeader(blocksOf(bytes, 4096), catalogue)
    const pool = new ImpactWorkerPool(2, inThisThread({ ...vanComparison, columns: header.columns }))
    const result = await runImpact(vanComparison, { top_movers: 3 }, undefined, (pass) =>
      pool.run(
        pass,
        portfolioFeed(header, () => blocksOf(bytes.subarray(header.bytes), 5000))
      )
    )
    await pool.close()
    const alone = await runImpact(vanComparison, { top_movers: 3 }, undefined, async (pass) => {
      const accumulator = new ImpactAccumulator(pass.impact)
      const price = impactPricer(vanComparison)
      forEachPortfolioRow(lines.slice(1).join("\n"), 2, header.columns, (row) => accumulator.add(price(row)))
      return accumulator
    })
    expect(result).toEqual(alone)
    expect(result.report.totals.policies).toBe(1_200)
    expect(result.report.parameter_segments?.map((segments) => segments.parameter)).toContain("overnight_parking")
  })

  it("fails the pass with the line of a malformed case", async () => {
    const lines = [...book.lines]
    lines[900] = "P1,insurance-car-leasing"
    const bytes = bookBytes(`${book.header}\n${lines.join("\n")}\n`)
    const header = await portfolioHeader(blocksOf(bytes, 4096))
    const pool = new ImpactWorkerPool(2, inThisThread({ ...comparison, columns: header.columns }))
    await expect(
      pool.run(
        { impact: {} },
        portfolioFeed(header, () => blocksOf(bytes.subarray(header.bytes), 2000))
      )
    ).rejects.toThrow(new PortfolioFormatError(902, "has 2 fields, the header 13"))
    await pool.close()
  })

  it("names the lowest malformed line of the chunks in flight, whichever worker answers first", async () => {
    const lines = [...book.lines]
    lines[1] = "P1,insurance-car-leasing"
    lines[200] = "P2,insurance-car-leasing"
    const bytes = bookBytes(`${book.header}\n${lines.join("\n")}\n`)
    const header = await portfolioHeader(blocksOf(bytes, 4096))
    // the first worker (given the first chunk, line 3's) answers only once the second, meeting line 202, has
    let secondAnswered = () => {}
    const second = new Promise<void>((resolve) => {
      secondAnswered = resolve
    })
    const pool = new ImpactWorkerPool(
      2,
      inThisThread(
        { ...comparison, columns: header.columns },
        {
          holdsUntil: (worker) => (worker === 0 ? second : Promise.resolve()),
          answered: (worker) => worker === 1 && secondAnswered()
        }
      )
    )
    await expect(
      pool.run(
        { impact: {} },
        portfolioFeed(header, () => blocksOf(bytes.subarray(header.bytes), 2000))
      )
    ).rejects.toThrow(new PortfolioFormatError(3, "has 2 fields, the header 13"))
    await pool.close()
  })

  it("ends a pass under way when the pool is closed", async () => {
    const bytes = bookBytes(text)
    const header = await portfolioHeader(blocksOf(bytes, 4096))
    const pool = new ImpactWorkerPool(2, inThisThread({ ...comparison, columns: header.columns }))
    let fed = 0
    const pass = pool.run(
      { impact: {} },
      portfolioFeed(
        header,
        () => blocksOf(bytes.subarray(header.bytes), 1000),
        () => {
          fed++
          if (fed === 3) void pool.close()
        }
      )
    )
    await expect(pass).rejects.toThrow(ImpactStopped)
  })
})

describe("the impact worker pool's watchdog", () => {
  const book = generatedBook(1_500, 11)
  const bytes = bookBytes(`${book.header}\n${book.body}`)
  const LIMIT = 100
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  /** A pass over the book in chunks of 2000 bytes, on fake workers and fake timers, and how it ended (when it has). */
  const startPass = async (count: number, workers: FakeWorkers, feed?: ImpactFeed) => {
    const header = await portfolioHeader(blocksOf(bytes, 4096))
    vi.useFakeTimers()
    const pool = new ImpactWorkerPool(count, inThisThread({ ...comparison, columns: header.columns }, workers), {
      silence_limit_ms: LIMIT
    })
    let ended: "done" | Error | undefined
    pool.run({ impact: {} }, feed ?? portfolioFeed(header, () => blocksOf(bytes.subarray(header.bytes), 2000))).then(
      () => {
        ended = "done"
      },
      (error: Error) => {
        ended = error
      }
    )
    return { pool, ended: () => ended }
  }

  it("fails the pass once a worker has given no answer to a chunk for the limit, and stops the workers", async () => {
    const started: Array<"started" | "terminated"> = []
    const { ended } = await startPass(2, {
      started,
      swallows: (worker, message) => worker === 1 && message.type === "text"
    })
    await vi.advanceTimersByTimeAsync(LIMIT)
    expect(ended()).toBeUndefined()
    await vi.advanceTimersByTimeAsync(LIMIT)
    expect(ended()).toEqual(new ImpactWorkerSilent(0.1))
    expect((ended() as Error).message).toBe(
      "an impact worker stopped answering for 0.1 s: it may have run out of memory; try fewer workers or a smaller file"
    )
    expect(started).toEqual(["terminated", "terminated"])
    expect(vi.getTimerCount()).toBe(0)
  })

  it("fails the pass once a worker has given no answer to the request for its state for the limit", async () => {
    const { ended } = await startPass(2, { swallows: (worker, message) => worker === 0 && message.type === "finish" })
    await vi.advanceTimersByTimeAsync(LIMIT)
    expect(ended()).toBeUndefined()
    await vi.advanceTimersByTimeAsync(LIMIT)
    expect(ended()).toBeInstanceOf(ImpactWorkerSilent)
  })

  it("lets slow workers that answer each chunk within the limit run a pass many times longer, then stops watching", async () => {
    const { pool, ended } = await startPass(2, { delays: [80, 80] })
    let elapsed = 0
    while (ended() === undefined && elapsed < 100 * LIMIT) {
      await vi.advanceTimersByTimeAsync(LIMIT / 2)
      elapsed += LIMIT / 2
    }
    expect(ended()).toBe("done")
    expect(elapsed).toBeGreaterThan(10 * LIMIT)
    // the pass is over: no timer of its watchdog is left, though the pool is still open
    expect(vi.getTimerCount()).toBe(0)
    await pool.close()
  })

  it("stops watching when the pool is closed, whatever the pass waits for", async () => {
    // a feed that sends a chunk, then waits for ever, as a read of a file that never ends
    const header = await portfolioHeader(blocksOf(bytes, 4096))
    const { pool, ended } = await startPass(
      2,
      { swallows: (worker, message) => worker === 0 && message.type === "text" },
      async (send) => {
        await send({ type: "text", bytes: bytes.slice(header.bytes, header.bytes + 2000), first_line: 2 })
        await new Promise(() => {})
      }
    )
    await vi.advanceTimersByTimeAsync(LIMIT / 2)
    await pool.close()
    await vi.advanceTimersByTimeAsync(LIMIT)
    expect(vi.getTimerCount()).toBe(0)
    expect(ended()).toBeUndefined()
  })

  it("counts a main thread held still for longer than the limit (a laptop asleep, a process stopped) as one check", async () => {
    // workers a little slow, so that the pass spans several checks before and after the stall
    const { ended } = await startPass(2, { delays: [5, 5] })
    await vi.advanceTimersByTimeAsync(LIMIT / 2)
    expect(ended()).toBeUndefined()
    // held still for three limits with chunks in flight: the clock moves on, and no timer fires meanwhile
    vi.setSystemTime(Date.now() + 3 * LIMIT)
    for (let step = 0; ended() === undefined && step < 1_000; step++) await vi.advanceTimersByTimeAsync(LIMIT / 10)
    expect(ended()).toBe("done")
  })

  it("refuses a silence limit that is not a number of milliseconds above 0, naming the option", () => {
    const start = inThisThread({ ...comparison, columns: undefined })
    for (const limit of [0, -5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new ImpactWorkerPool(1, start, { silence_limit_ms: limit })).toThrow(
        `silence_limit_ms must be a number of milliseconds above 0, not ${limit}`
      )
  })

  it("keeps no Node process alive by its timer: the worker threads do while they work", async () => {
    const header = await portfolioHeader(blocksOf(bytes, 4096))
    const setInterval = vi.spyOn(globalThis, "setInterval")
    const pool = new ImpactWorkerPool(2, inThisThread({ ...comparison, columns: header.columns }))
    const refs: Array<boolean> = []
    await pool.run(
      { impact: {} },
      portfolioFeed(
        header,
        () => blocksOf(bytes.subarray(header.bytes), 20_000),
        () => {
          const watchdog = setInterval.mock.results[0]?.value as NodeJS.Timeout | undefined
          refs.push(watchdog?.hasRef() ?? true)
        }
      )
    )
    await pool.close()
    expect(setInterval).toHaveBeenCalledTimes(1)
    expect(refs.length).toBeGreaterThan(0)
    expect(refs.every((ref) => !ref)).toBe(true)
  })
})
