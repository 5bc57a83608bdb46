import { SqliteQuoteStore } from "@kasko/sqlite"
import { afterAll } from "vitest"
import { quoteStoreContract } from "./QuoteStoreContract.js"
import { temporaryDirectory } from "../support.js"

const directory = temporaryDirectory("kasko-sqlite-contract-")
afterAll(() => directory.remove())

for (const synchronous of ["FULL", "NORMAL"] as const) {
  quoteStoreContract(`SQLite, synchronous=${synchronous}`, () =>
    SqliteQuoteStore.layer({ filename: directory.newFile("quotes.db"), synchronous })
  )
}
