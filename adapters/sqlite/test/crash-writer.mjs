// Child process of the crash test: inserts the quotes of a JSON file, in order from
// an index, into a SQLite store, and prints each index once its insert has returned
// (acknowledged). The test kills it with SIGKILL at some point. A quote already stored
// (committed by an earlier writer just before its kill) is skipped, not re-inserted.
import { SqliteConnection, SqliteQuoteStore } from "@kasko/sqlite"
import { Effect } from "effect"
import { readFileSync, writeSync } from "node:fs"

const [filename, quotesFile, startIndex, synchronous] = process.argv.slice(2)
const quotes = JSON.parse(readFileSync(quotesFile, "utf8"))
const database = SqliteConnection.openConnection({ filename, synchronous })
const store = SqliteQuoteStore.makeQuoteStore(database)
writeSync(1, "ready\n")
for (let index = Number(startIndex); index < quotes.length; index++) {
  const quote = quotes[index]
  if (Effect.runSync(store.find(quote.partner_id, quote.quote_id))._tag === "Some") continue
  await Effect.runPromise(store.insert(quote))
  writeSync(1, `${index}\n`)
}
writeSync(1, "done\n")
