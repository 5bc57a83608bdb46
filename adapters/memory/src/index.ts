export * as MemoryQuoteStore from "./MemoryQuoteStore.js"
