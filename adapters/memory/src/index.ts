export * as MemoryQuoteStore from "./MemoryQuoteStore.js"
export * as MemoryPartnerStore from "./MemoryPartnerStore.js"
export * as MemoryRateLimiter from "./MemoryRateLimiter.js"
export * as MemoryEventOutbox from "./MemoryEventOutbox.js"
