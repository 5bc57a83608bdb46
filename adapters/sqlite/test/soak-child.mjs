// Child process of the soak test, started with --expose-gc: opens SQLite stores, uses them and closes
// them in a loop, forcing garbage collection between rounds, so statements are collected after their
// database closed — on the main thread and in worker threads that end with a store still open.
// It exits 0 when every round ran; a native abort in the driver ends it by a signal instead.
import { Examples, IdGenerator, Kasko } from "@kasko/core"
import { SqliteConnection, SqliteQuoteStore, SqliteStores } from "@kasko/sqlite"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads"

const gc = globalThis.gc
if (typeof gc !== "function") throw new Error("run with --expose-gc")

const PARTNER = "soak-partner"
const request = Examples.quoteRequest(Examples.standardParameters({ vehicle_price: "250000" }))

/** One round through the public facade: a quote created, read, activated; the engine disposed. */
const roundThroughKasko = async (filename) => {
  const kasko = Kasko.make(Layer.merge(SqliteStores.layer({ filename }), IdGenerator.layerFromRandomBytes(randomBytes)))
  try {
    const quote = await kasko.createQuote(PARTNER, request)
    await kasko.getQuote(PARTNER, quote.quote_id)
    await kasko.activateQuote(PARTNER, quote.quote_id)
  } finally {
    await kasko.dispose()
  }
}

/** One round on a bare connection: statements prepared and dropped, the connection closed under them. */
const roundOnConnection = (filename, close) => {
  const database = SqliteConnection.openConnection({ filename, synchronous: "NORMAL" })
  const store = SqliteQuoteStore.makeQuoteStore(database)
  for (let index = 0; index < 20; index++) {
    Effect.runSync(store.find(PARTNER, `00000000-0000-7000-8000-${String(index).padStart(12, "0")}`))
    database.prepare(`SELECT ${index} AS n`).get()
  }
  if (close) database.close()
}

if (isMainThread) {
  const [directory, roundsArgument, secondsArgument] = process.argv.slice(2)
  const rounds = Number(roundsArgument)
  const deadline = Date.now() + Number(secondsArgument) * 1000
  let done = 0
  while (done < rounds && Date.now() < deadline) {
    const filename = join(directory, `soak-${done % 4}.db`)
    roundOnConnection(filename, true)
    if (done % 8 === 0) {
      await roundThroughKasko(filename)
      // a worker that ends with its connection still open: its statements go with its environment
      await new Promise((resolve, reject) => {
        const worker = new Worker(new URL(import.meta.url), { workerData: { filename } })
        worker.once("message", () => void worker.terminate().then(resolve, reject))
        worker.once("error", reject)
      })
    }
    // collected now and then, and otherwise whenever V8 chooses: both orders of closing and collecting
    if (done % 3 === 0) gc()
    done++
  }
  gc()
  process.stdout.write(`${JSON.stringify({ rounds: done })}\n`)
} else {
  roundOnConnection(workerData.filename, false)
  gc()
  parentPort.postMessage("used")
}
