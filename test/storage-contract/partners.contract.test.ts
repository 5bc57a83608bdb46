import { MemoryPartnerStore } from "@kasko/memory"
import { SqlitePartnerStore } from "@kasko/sqlite"
import { afterAll } from "vitest"
import { temporaryDirectory } from "../support.js"
import { partnerStoreContract } from "./PartnerStoreContract.js"

const directory = temporaryDirectory("kasko-partner-contract-")
afterAll(() => directory.remove())

partnerStoreContract("memory", () => MemoryPartnerStore.layer)
partnerStoreContract("SQLite", () => SqlitePartnerStore.layer({ filename: directory.newFile("partners.db") }))
