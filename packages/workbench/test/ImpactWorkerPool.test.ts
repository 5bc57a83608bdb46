/**
 * The impact's worker pool over workers of any kind (here: the worker's job in this thread,
 * behind structured clones, as a thread or a web worker would get it): its passes merge into the
 * report one accumulator gives, a malformed line fails the pass with its line, and closing the
 * pool under a pass ends that pass.
 */
import { describe, expect, it } from "vitest"
import { ImpactAccumulator } from "../src/ImpactAccumulator.js"
import { impactPricer, type PortfolioRow, type TariffComparison } from "../src/ImpactPricing.js"
import { type ImpactWorkerData, impactWorkerJob } from "../src/ImpactWorkerJob.js"
import { ImpactStopped, ImpactWorkerPool, portfolioFeed, type StartImpactWorker } from "../src/ImpactWorkerPool.js"
import { portfolioHeader } from "../src/PortfolioChunks.js"
import { forEachPortfolioRow, PortfolioFormatError } from "../src/PortfolioCsv.js"
import { generatedBook, leasingV1, PRICING_DATE, rebalance, standaloneV1 } from "./support.js"

const comparison: TariffComparison = {
  old: [leasingV1, standaloneV1],
  new: [rebalance, standaloneV1],
  pricing_date: PRICING_DATE
}

/** Workers in this thread: each message cloned and answered on a later turn, as across threads. */
const inThisThread =
  (data: ImpactWorkerData, started: Array<string> = [], delays: ReadonlyArray<number> = []): StartImpactWorker =>
  (listeners) => {
    const answer = impactWorkerJob(structuredClone(data))
    let terminated = false
    // the nth worker started answers after delays[n] ms (0 unless given): a slow worker, as a busy core makes one
    const delay = delays[started.length] ?? 0
    started.push("worker")
    return {
      post: (message) => {
        const copy = structuredClone(message)
        setTimeout(() => {
          if (!terminated) listeners.answer(structuredClone(answer(copy)))
        }, delay)
      },
      terminate: () => {
        terminated = true
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
    const started: Array<string> = []
    const pool = new ImpactWorkerPool(3, inThisThread({ ...comparison, columns: header.columns }, started))
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
    // the first worker (given the first chunk, line 3's) answers late; the second meets line 202 and answers at once
    const pool = new ImpactWorkerPool(2, inThisThread({ ...comparison, columns: header.columns }, [], [40, 0]))
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
