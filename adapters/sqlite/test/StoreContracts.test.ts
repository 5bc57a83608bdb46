/** The store contracts (@kasko/store-contracts) against SQLite files, with both durability settings. */
import { SqlitePartnerStore, SqliteQuoteStore } from "@kasko/sqlite"
import { outboxContract, partnerStoreContract, quoteStoreContract } from "@kasko/store-contracts"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"

const directory = mkdtempSync(join(tmpdir(), "kasko-sqlite-contracts-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
let files = 0
const newFile = (name: string) => join(directory, `${++files}-${name}`)

for (const synchronous of ["FULL", "NORMAL"] as const) {
  quoteStoreContract(`SQLite, synchronous=${synchronous}`, () =>
    SqliteQuoteStore.layer({ filename: newFile("quotes.db"), synchronous })
  )
  outboxContract(`SQLite, synchronous=${synchronous}`, () =>
    SqliteQuoteStore.layer({ filename: newFile("outbox.db"), synchronous })
  )
}
partnerStoreContract("SQLite", () => SqlitePartnerStore.layer({ filename: newFile("partners.db") }))
