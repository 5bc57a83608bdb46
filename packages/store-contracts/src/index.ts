/**
 * The store contracts: what every QuoteStore, PartnerStore and event outbox
 * must do, as vitest suites. An adapter runs them from its own `test/` against
 * its own layer — `quoteStoreContract("SQLite", () => SqliteQuoteStore.layer(…))`.
 * @module
 */
export { outboxContract } from "./OutboxContract.js"
export { partnerStoreContract } from "./PartnerStoreContract.js"
export { quoteStoreContract } from "./QuoteStoreContract.js"
export { makeFixtures, variantOf } from "./StoredQuoteFixtures.js"
