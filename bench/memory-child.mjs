// Memory section, run with --expose-gc: two rounds of 100 000 offers and 100 000 quotes
// through the public API on SQLite; RSS after each half, and the heap after each round.
import { Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { SqliteStores } from "@kasko/sqlite"
import { Effect, Layer, ManagedRuntime } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const COUNT = 100_000
const megabytes = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10
const settle = () => {
  globalThis.gc()
  globalThis.gc()
}

const directory = mkdtempSync(join(tmpdir(), "kasko-memory-bench-"))
// NORMAL: this section measures memory, not durability, and FULL would spend the time budget on fsync
const runtime = ManagedRuntime.make(
  Layer.mergeAll(
    SqliteStores.layer({ filename: join(directory, "kasko.db"), synchronous: "NORMAL" }),
    IdGenerator.layerFromRandomBytes(randomBytes),
    TariffBook.shipped
  )
)
const offers = Array.from({ length: 64 }, (_, index) =>
  Examples.offerRequest(
    Examples.standardParameters({
      vehicle_price: String(100_000 + index * 7_919),
      youngest_user_age: String(18 + (index % 50))
    })
  )
)
const quote = Examples.quoteRequest()

const round = async () => {
  for (let index = 0; index < COUNT; index++) runtime.runSync(QuotingService.createOffer(offers[index % offers.length]))
  const afterOffers = process.memoryUsage().rss
  const batch = Array.from({ length: 100 })
  for (let index = 0; index < COUNT; index += batch.length) {
    await runtime.runPromise(
      Effect.forEach(batch, () => QuotingService.createQuote("memory-bench", quote), {
        concurrency: "unbounded",
        discard: true
      })
    )
  }
  const afterQuotes = process.memoryUsage().rss
  settle()
  return {
    rss_after_offers_mb: megabytes(afterOffers),
    rss_after_quotes_mb: megabytes(afterQuotes),
    heap_used_mb: megabytes(process.memoryUsage().heapUsed)
  }
}

try {
  await runtime.context()
  settle()
  const start = megabytes(process.memoryUsage().heapUsed)
  const first = await round()
  const second = await round()
  process.stdout.write(
    `${JSON.stringify({
      heap_at_start_mb: start,
      first_round: first,
      second_round: second,
      heap_growth_between_rounds_percent:
        Math.round(((second.heap_used_mb - first.heap_used_mb) / first.heap_used_mb) * 1000) / 10
    })}\n`
  )
} finally {
  await runtime.dispose()
  rmSync(directory, { recursive: true, force: true })
}
