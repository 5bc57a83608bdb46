/**
 * `@kasko/core/storage`: what every store adapter needs of the domain and an
 * embedder never does — the lifecycle rules that decide what a stored quote
 * answers and when it may be purged, and how many deliveries a partner may
 * have in flight. (Rows and migrations, which only SQL stores share, are in
 * `@kasko/sql`.)
 * @module
 */
export * as QuoteLifecycle from "./quote/QuoteLifecycle.js"
export * as DeliveryAllowance from "./events/DeliveryAllowance.js"
