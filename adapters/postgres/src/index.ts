/**
 * `@kasko/postgres`: kasko's stores on PostgreSQL, for several service instances sharing one database — quotes,
 * partners, the event outbox and webhook subscriptions (`PostgresStores.layer`), and a rate limit for all of them.
 * @module
 */
export * as PostgresStores from "./PostgresStores.js"
export * as PostgresEventOutbox from "./PostgresEventOutbox.js"
export * as PostgresWebhookSubscriptions from "./PostgresWebhookSubscriptions.js"
export * as PostgresMigrations from "./PostgresMigrations.js"
export { PostgresOpenRefused, type PostgresOptions } from "./PostgresStores.js"
export * as PostgresRateLimiter from "./PostgresRateLimiter.js"
