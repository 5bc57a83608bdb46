/**
 * `@kasko/core/storage`: what the store adapters share and an embedder never
 * needs — the rows a quote and a partner are stored as, the migration plan,
 * and the lifecycle rules that decide what a stored quote answers and when
 * it may be purged.
 */
export * as QuoteLifecycle from "./quote/QuoteLifecycle.js"
export * as SchemaMigrations from "./storage/SchemaMigrations.js"
export * as StoredRows from "./storage/StoredRows.js"
export * as DeliveryAllowance from "./events/DeliveryAllowance.js"
