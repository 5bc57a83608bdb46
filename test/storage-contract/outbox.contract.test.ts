/** The outbox contract on every store: memory, SQLite (both durability settings) and PostgreSQL. */
import { MemoryQuoteStore } from "@kasko/memory"
import { SqliteQuoteStore } from "@kasko/sqlite"
import { afterAll } from "vitest"
import { temporaryDirectory } from "../support.js"
import { outboxContract } from "./OutboxContract.js"

const directory = temporaryDirectory("kasko-outbox-contract-")
afterAll(() => directory.remove())

outboxContract("memory", () => MemoryQuoteStore.layer)
for (const synchronous of ["FULL", "NORMAL"] as const) {
  outboxContract(`SQLite, synchronous=${synchronous}`, () =>
    SqliteQuoteStore.layer({ filename: directory.newFile("outbox.db"), synchronous })
  )
}
