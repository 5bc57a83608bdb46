/**
 * The store's quotes as an impact test's book, in the SQLite store: a target's solve prices every
 * pass on the quotes the first pass listed — quotes created during the solve are left out — and
 * fails, asking to run again, when a later pass finds quotes purged or new ones among the book's ids.
 */
import { Examples, IdGenerator, QuoteStore, QuotingService, TariffBook } from "@kasko/core"
import { TariffDocuments } from "@kasko/core/actuarial"
import { SqliteStores } from "@kasko/sqlite"
import { type ImpactResult, type PortfolioRow, portfolioImpact } from "@kasko/workbench"
import { Clock, Effect, Layer, ManagedRuntime, Option } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeEach, describe, expect, it } from "vitest"
import { makeAdjustableClock } from "../src/AdjustableClock.js"
import { storePortfolio } from "../src/StorePortfolio.js"

const directory = mkdtempSync(join(tmpdir(), "kasko-store-portfolio-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const SHIPPED = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)
const PARTNER = "bilhuset"

let runtime: ManagedRuntime.ManagedRuntime<
  QuoteStore.QuoteStore | TariffBook.TariffBook | IdGenerator.IdGenerator,
  unknown
>
let made = 0
// the stores' clock: the ids of quotes created after it is moved list after every quote created before
const clock = makeAdjustableClock()
beforeEach(async () => {
  await runtime?.dispose()
  runtime = ManagedRuntime.make(
    Layer.mergeAll(
      SqliteStores.layer({ filename: join(directory, `kasko-${made}.db`) }),
      TariffBook.shipped,
      IdGenerator.layerFromRandomBytes(randomBytes)
    ).pipe(Layer.provideMerge(Layer.succeed(Clock.Clock, clock.clock)))
  )
  await create(24)
})
afterAll(() => runtime?.dispose())

/** Quotes of the example request at other vehicle prices, created now (their UUID v7 ids from the clock). */
const create = (count: number) =>
  runtime.runPromise(
    Effect.forEach(Array.from({ length: count }), () =>
      QuotingService.createQuote(
        PARTNER,
        Examples.quoteRequest(Examples.standardParameters({ vehicle_price: String(120_000 + 9_137 * (made++ % 40)) }))
      )
    )
  )

const store = <A>(use: (store: QuoteStore.QuoteStore["Service"]) => Effect.Effect<A, unknown>) =>
  runtime.runPromise(Effect.flatMap(QuoteStore.QuoteStore, use))

/** The store's rows, 7 quotes a page, as `kasko tariff impact --from-store` reads them. */
const storeRows = () => storePortfolio((after, limit) => store((quotes) => quotes.listPortfolio({ after, limit })), 7)

/** An impact test of the shipped tariffs on the store's book with a target on kasko, which takes re-pricings. */
const impact = (rows: () => AsyncIterable<ReadonlyArray<PortfolioRow>>): Promise<ImpactResult> =>
  portfolioImpact({
    old: SHIPPED,
    new: SHIPPED,
    portfolio: { rows },
    target: { percent: 4, on: "kasko" },
    workers: 1
  })

/** The rows, with `change` done to the store before every pass after the first. */
const changingBetweenPasses = (change: () => Promise<unknown>) => {
  const rows = storeRows()
  let passes = 0
  return {
    passes: () => passes,
    rows: async function* () {
      passes++
      if (passes > 1) await change()
      yield* rows()
    }
  }
}

describe("the store's quotes as the book of a target's solve", () => {
  it("prices every pass on the first pass's quotes: quotes created during the solve are left out", async () => {
    const still = await impact(storeRows())
    // later than every quote of the book by the clock, so their ids list after it
    clock.adjust(1_000)
    const moving = changingBetweenPasses(() => create(3))
    const result = await impact(moving.rows)
    expect(moving.passes()).toBeGreaterThanOrEqual(3)
    expect(result.report.totals.policies).toBe(24)
    expect(result).toEqual(still)
    // the quotes were created: the next test prices them
    const next = await impact(storeRows())
    expect(next.report.totals.policies).toBe(24 + 3 * (moving.passes() - 1))
  })

  it("fails, asking to run again, when a quote is purged during the solve", async () => {
    const [oldest] = await store((quotes) => quotes.listPortfolio({ after: undefined, limit: 1 }))
    const moving = changingBetweenPasses(() =>
      store((quotes) => quotes.purge({ awaitingCreatedAtOrBefore: oldest!.created_at, activatedCreatedAtOrBefore: 0 }))
    )
    await expect(impact(moving.rows)).rejects.toThrow("the store's quotes changed during the solve: run again")
  })

  /** A copy of the book's first quote under an id that lists first: created in the book's range (the same millisecond, another clock). */
  const copyIntoTheBook = async (suffix: string) => {
    const [first] = await store((quotes) => quotes.listPortfolio({ after: undefined, limit: 1 }))
    const stored = await store((quotes) => quotes.find(PARTNER, first!.quote_id))
    if (Option.isNone(stored)) throw new Error("the first quote is stored")
    const quote = stored.value
    await store((quotes) =>
      quotes.insert({
        ...quote,
        quote_id: `00000000-0000-7000-8000-${suffix.padStart(12, "0")}`,
        quote_number: `${quote.quote_number.slice(0, -4)}${suffix.padStart(4, "0")}`
      })
    )
  }

  it("fails when a quote is created among the book's ids during the solve", async () => {
    let copies = 0
    const moving = changingBetweenPasses(() => copyIntoTheBook(String(++copies)))
    await expect(impact(moving.rows)).rejects.toThrow("the store's quotes changed during the solve: run again")
  })

  it("fails when as many quotes are created among the book's ids as are purged: the same count, other quotes", async () => {
    const [oldest] = await store((quotes) => quotes.listPortfolio({ after: undefined, limit: 1 }))
    let changed = false
    const moving = changingBetweenPasses(async () => {
      if (changed) return
      changed = true
      const purged = await store((quotes) =>
        quotes.purge({ awaitingCreatedAtOrBefore: oldest!.created_at, activatedCreatedAtOrBefore: 0 })
      )
      for (let copy = 1; copy <= purged; copy++) await copyIntoTheBook(String(copy))
    })
    await expect(impact(moving.rows)).rejects.toThrow("the store's quotes changed during the solve: run again")
  })
})
