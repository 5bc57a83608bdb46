/**
 * `@kasko/memory`: the QuoteStore, PartnerStore, event outbox and RateLimiter in memory, for tests, embedding and
 * demos: nothing survives the process.
 * @module
 */
export * as MemoryQuoteStore from "./MemoryQuoteStore.js"
export * as MemoryPartnerStore from "./MemoryPartnerStore.js"
export * as MemoryRateLimiter from "./MemoryRateLimiter.js"
export * as MemoryEventOutbox from "./MemoryEventOutbox.js"
