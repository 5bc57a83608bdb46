// Child process of the group-commit test: three quotes created in one tick share one commit, and the
// first request's exit observer throws. Prints what each request answered, how many quotes the file
// holds, and what reached the process as an uncaught exception.
import { Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { SqliteQuoteStore } from "@kasko/sqlite"
import Database from "better-sqlite3"
import { Exit, Layer, ManagedRuntime } from "effect"
import { join } from "node:path"

const filename = join(process.argv[2], "group.db")
const uncaught = []
process.on("uncaughtException", (error) => uncaught.push(error.message))

const runtime = ManagedRuntime.make(
  Layer.mergeAll(SqliteQuoteStore.layer({ filename }), IdGenerator.layerSequential, TariffBook.shipped)
)
await runtime.context()
const answers = await Promise.all(
  [0, 1, 2].map(
    (index) =>
      new Promise((resolve) =>
        runtime.runCallback(QuotingService.createQuote("partner-a", Examples.quoteRequest()), {
          onExit: (exit) => {
            resolve(Exit.isSuccess(exit) ? "created" : "failed")
            if (index === 0) throw new Error("the first request's observer threw")
          }
        })
      )
  )
)
await new Promise((resolve) => setTimeout(resolve, 50))
await runtime.dispose()
const stored = new Database(filename, { readonly: true }).prepare("SELECT count(*) AS n FROM quotes").get().n
console.log(JSON.stringify({ answers, stored, uncaught }))
