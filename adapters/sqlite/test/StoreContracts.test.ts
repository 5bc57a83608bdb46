/** The store contracts (@kasko/store-contracts) against SQLite files, with both durability settings. */
import { SqlitePartnerStore, SqliteQuoteStore } from "@kasko/sqlite"
import { outboxContract, partnerStoreContract, quoteStoreContract } from "@kasko/store-contracts"
import { scratchFiles } from "./ScratchFiles.js"

const { newFile } = scratchFiles("kasko-sqlite-contracts-")

for (const synchronous of ["FULL", "NORMAL"] as const) {
  quoteStoreContract(`SQLite, synchronous=${synchronous}`, () =>
    SqliteQuoteStore.layer({ filename: newFile("quotes.db"), synchronous })
  )
  outboxContract(`SQLite, synchronous=${synchronous}`, () =>
    SqliteQuoteStore.layer({ filename: newFile("outbox.db"), synchronous })
  )
}
partnerStoreContract("SQLite", () => SqlitePartnerStore.layer({ filename: newFile("partners.db") }))
