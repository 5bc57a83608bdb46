/** The store contracts (@kasko/store-contracts) against the in-memory stores. */
import { MemoryPartnerStore, MemoryQuoteStore } from "@kasko/memory"
import { outboxContract, partnerStoreContract, quoteStoreContract } from "@kasko/store-contracts"

quoteStoreContract("memory", () => MemoryQuoteStore.layer)
partnerStoreContract("memory", () => MemoryPartnerStore.layer)
outboxContract("memory", () => MemoryQuoteStore.layer)
