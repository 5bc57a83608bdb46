/**
 * The store contracts (@kasko/store-contracts) against SQLite files with
 * synchronous=NORMAL; StoreContractsFull.test.ts runs them with FULL, the
 * default, whose fsync per commit makes it the slower half (`pnpm test` runs it,
 * `pnpm test:unit` does not).
 */
import { SqlitePartnerStore } from "@kasko/sqlite"
import { partnerStoreContract } from "@kasko/store-contracts"
import { storeContractsWith } from "./StoreContractsWith.js"
import { scratchFiles } from "./ScratchFiles.js"

storeContractsWith("NORMAL")
const { newFile } = scratchFiles("kasko-sqlite-partner-contract-")
partnerStoreContract("SQLite", () => SqlitePartnerStore.layer({ filename: newFile("partners.db") }))
