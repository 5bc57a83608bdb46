/** The quote store and outbox contracts (@kasko/store-contracts) on SQLite files with one durability setting. */
import { SqliteQuoteStore } from "@kasko/sqlite"
import { outboxContract, quoteStoreContract } from "@kasko/store-contracts"
import { scratchFiles } from "./ScratchFiles.js"

export const storeContractsWith = (synchronous: "FULL" | "NORMAL") => {
  const { newFile } = scratchFiles(`kasko-sqlite-contracts-${synchronous.toLowerCase()}-`)
  quoteStoreContract(`SQLite, synchronous=${synchronous}`, () =>
    SqliteQuoteStore.layer({ filename: newFile("quotes.db"), synchronous })
  )
  outboxContract(`SQLite, synchronous=${synchronous}`, () =>
    SqliteQuoteStore.layer({ filename: newFile("outbox.db"), synchronous })
  )
}
