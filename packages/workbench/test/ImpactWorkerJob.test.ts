/**
 * The impact worker's job on chunks larger than the slices it decodes them in: rows, lines and
 * malformed lines come out as one read of the whole chunk gives them, a quoted line break across a
 * slice's end included.
 */
import { Buffer } from "node:buffer"
import { describe, expect, it } from "vitest"
import { ImpactAccumulator } from "../src/ImpactAccumulator.js"
import { impactPricer, type PortfolioRow, type TariffComparison } from "../src/ImpactPricing.js"
import { type ImpactWorkerAnswer, impactWorkerJob } from "../src/ImpactWorkerJob.js"
import { forEachPortfolioRow, headerFields, portfolioColumns } from "../src/PortfolioCsv.js"
import { generatedBook, leasingV1, PRICING_DATE, rebalance, standaloneV1 } from "./support.js"

const comparison: TariffComparison = {
  old: [leasingV1, standaloneV1],
  new: [rebalance, standaloneV1],
  pricing_date: PRICING_DATE
}
const impact = { top_movers: 2_000 }

// about 120 bytes a line: 2 000 lines span several of the worker's 32 KiB slices
const book = generatedBook(2_000, 29)
const columns = portfolioColumns(headerFields(book.header))

/** What the job answers for the body sent as one chunk starting on line 2, and what one read of it gives. */
const priced = (body: Uint8Array | string) => {
  const job = impactWorkerJob({ ...comparison, columns })
  expect(job({ type: "pass", pass: { impact } })).toEqual({ type: "done" })
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body
  const answer = job({ type: "text", bytes, first_line: 2 })
  return { answer, state: job({ type: "finish" }) }
}

/** The report of a worker's state answered at the end of a pass. */
const reportOf = (answer: ImpactWorkerAnswer) => {
  if (answer.type !== "state") throw new Error(`the worker answered ${JSON.stringify(answer)}`)
  const merged = new ImpactAccumulator(impact)
  merged.merge(answer.state)
  return merged.finish()
}

const readWhole = (body: string) => {
  const alone = new ImpactAccumulator(impact)
  const price = impactPricer(comparison)
  forEachPortfolioRow(body, 2, columns, (row: PortfolioRow) => alone.add(price(row)))
  return alone
}

describe("an impact worker's chunk, decoded in slices", () => {
  it("gives the rows and lines one read of the whole chunk gives", () => {
    const { answer, state } = priced(book.body)
    expect(answer).toEqual({ type: "done" })
    const report = reportOf(state)
    expect(report).toEqual(readWhole(book.body).finish())
    expect(report.totals.policies).toBe(2_000)
  })

  it("reads a quoted line break where a slice would end as part of its field, and numbers the lines after it", () => {
    const lines = [...book.lines]
    // the first slice ends at the first line break from byte 32 768: put one inside a quoted policy id there
    const rowAt = (offset: number) => {
      let start = 0
      for (let row = 0; ; row++) {
        const end = start + Buffer.byteLength(lines[row]!) + 1
        if (end > offset) return { row, start }
        start = end
      }
    }
    const { row, start } = rowAt(32 * 1024)
    const before = 32 * 1024 - start
    lines[row] = lines[row]!.replace(/^P\d+/, `"${"P".repeat(before)}\nin two"`)
    expect(`${lines.join("\n")}\n`.indexOf("\n", 32 * 1024)).toBe(start + 1 + before)
    const body = `${lines.join("\n")}\n`
    expect(reportOf(priced(body).state)).toEqual(readWhole(body).finish())

    // a case with one field too few further on is named by its line: the quoted line break counted
    lines[1_897] = lines[1_897]!.split(",").slice(1).join(",")
    expect(priced(`${lines.join("\n")}\n`).answer).toEqual({
      type: "failed",
      line: 1_900,
      message: "has 12 fields, the header 13"
    })
  })

  it("names a malformed case's line in a later slice", () => {
    const lines = [...book.lines]
    lines[1_700] = "P1,insurance-car-leasing"
    expect(priced(`${lines.join("\n")}\n`).answer).toEqual({
      type: "failed",
      line: 1_702,
      message: "has 2 fields, the header 13"
    })
  })

  it("names the first line of the slice holding bytes that are not UTF-8, not the chunk's", () => {
    const bytes = new TextEncoder().encode(book.body)
    const at = bytes.indexOf(10, 100_000) + 5
    bytes[at] = 0xff
    const answer = priced(bytes).answer as { type: string; line: number; message: string }
    expect(answer.type).toBe("failed")
    expect(answer.message).toBe("is not UTF-8 text (on this line or one of the lines after it)")
    // the slice starts at most 32 KiB (about 300 lines) before the bad byte's line, and after line 2
    const badLine = 2 + new TextDecoder().decode(bytes.subarray(0, at)).split("\n").length - 1
    expect(answer.line).toBeGreaterThan(2)
    expect(answer.line).toBeLessThanOrEqual(badLine)
    expect(badLine - answer.line).toBeLessThan(400)
  })
})
