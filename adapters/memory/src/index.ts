export * as MemoryQuoteStore from "./MemoryQuoteStore.js"
export * as MemoryPartnerStore from "./MemoryPartnerStore.js"
