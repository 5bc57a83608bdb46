// Storage benchmark: inserts/s (one writer, and 32 concurrent writers whose inserts the
// SQLite store commits in groups) and point reads/s through the QuoteStore port, PostgreSQL included,
// for SQLite with synchronous=FULL and NORMAL, next to the in-memory store as the
// baseline, all in one run on this machine.
import { Examples, IdGenerator, QuoteStore, QuotingService, TariffBook } from "@kasko/core"
import { MemoryQuoteStore } from "@kasko/memory"
import { PostgresStores } from "@kasko/postgres"
import { SqliteConnection, SqliteQuoteStore } from "@kasko/sqlite"
import { QuoteStore as QuoteStoreTag } from "@kasko/core"
import pg from "pg"
import { Context, Effect, Layer, Option } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const INSERTS = 3_000
const READS = 30_000

/** One stored quote as the engine makes it, to copy under new ids. */
const templateQuote = async () => {
  let captured
  const capturing = Layer.succeed(QuoteStore.QuoteStore, {
    insert: (quote) =>
      Effect.sync(() => {
        captured = quote
      }),
    insertIdempotent: (quote) =>
      Effect.sync(() => {
        captured = quote
        return Option.none()
      }),
    find: () => Effect.succeed(Option.none()),
    markActivated: () => Effect.succeed(Option.none()),
    purge: () => Effect.succeed(0)
  })
  await Effect.runPromise(
    QuotingService.createQuote("partner-a", Examples.quoteRequest()).pipe(
      Effect.provide(Layer.mergeAll(capturing, IdGenerator.layerSequential, TariffBook.shipped))
    )
  )
  return captured
}

const quoteNumber = (index) => `8${String(index).padStart(15, "0")}`.replace(/(\d{4})(?=\d)/g, "$1 ")
const copyOf = (template, index) => {
  const quoteId = `0190b000-0000-7000-8000-${String(index).padStart(12, "0")}`
  return {
    ...template,
    quote_id: quoteId,
    quote_number: quoteNumber(index),
    quote: { ...template.quote, quote_id: quoteId }
  }
}

const measure = async (count, operation) => {
  const started = process.hrtime.bigint()
  for (let index = 0; index < count; index++) await operation(index)
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  return count / seconds
}

/** Inserts from `concurrency` writers at once (a service's concurrent requests), waiting for each acknowledgement. */
const concurrentInserts = async (store, quotes, concurrency) => {
  const started = process.hrtime.bigint()
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < quotes.length) await Effect.runPromise(store.insert(quotes[next++]))
    })
  )
  return quotes.length / (Number(process.hrtime.bigint() - started) / 1e9)
}

const benchStore = async (store, quotes, moreQuotes) => {
  const insertsPerSecond = await measure(quotes.length, (index) => Effect.runPromise(store.insert(quotes[index])))
  const concurrentInsertsPerSecond = await concurrentInserts(store, moreQuotes, 32)
  const readsPerSecond = await measure(READS, async (index) => {
    const quote = quotes[(index * 7919) % quotes.length]
    if (Option.isNone(await Effect.runPromise(store.find(quote.partner_id, quote.quote_id))))
      throw new Error("benchmark read missed")
  })
  return { insertsPerSecond, concurrentInsertsPerSecond, readsPerSecond }
}

const POSTGRES = process.env.KASKO_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

/** The same measurements on PostgreSQL, in a schema of its own that is dropped afterwards. */
const benchPostgres = async (quotes, moreQuotes) => {
  const schema = `kasko_bench_${process.pid}`
  try {
    return await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(PostgresStores.layer({ connectionString: POSTGRES, schema, poolSize: 10 }))
          const store = Context.get(context, QuoteStoreTag.QuoteStore)
          return yield* Effect.promise(() => benchStore(store, quotes, moreQuotes))
        })
      )
    )
  } finally {
    const client = new pg.Client({ connectionString: POSTGRES })
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await client.end()
  }
}

export const runStorageBench = async () => {
  const template = await templateQuote()
  const quotes = Array.from({ length: INSERTS }, (_, index) => copyOf(template, index))
  const moreQuotes = Array.from({ length: INSERTS * 3 }, (_, index) => copyOf(template, INSERTS + index))
  const directory = mkdtempSync(join(tmpdir(), "kasko-bench-"))
  try {
    const rows = [
      { store: "memory (baseline)", ...(await benchStore(MemoryQuoteStore.makeQuoteStore(), quotes, moreQuotes)) }
    ]
    for (const synchronous of ["FULL", "NORMAL"]) {
      const database = SqliteConnection.openConnection({ filename: join(directory, `${synchronous}.db`), synchronous })
      try {
        rows.push({
          store: `SQLite synchronous=${synchronous}`,
          ...(await benchStore(SqliteQuoteStore.makeQuoteStore(database), quotes, moreQuotes))
        })
      } finally {
        SqliteConnection.closeConnection(database)
      }
    }
    rows.push({ store: "PostgreSQL (127.0.0.1, pool of 10)", ...(await benchPostgres(quotes, moreQuotes)) })
    const [baseline] = rows
    return rows.map((row) => ({
      ...row,
      insertsVsBaseline: row.insertsPerSecond / baseline.insertsPerSecond,
      concurrentInsertsVsBaseline: row.concurrentInsertsPerSecond / baseline.concurrentInsertsPerSecond,
      readsVsBaseline: row.readsPerSecond / baseline.readsPerSecond
    }))
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}
