import { MemoryQuoteStore } from "@kasko/memory"
import { quoteStoreContract } from "./QuoteStoreContract.js"

quoteStoreContract("memory", () => MemoryQuoteStore.layer)
