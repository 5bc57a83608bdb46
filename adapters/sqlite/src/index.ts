/**
 * `@kasko/sqlite`: kasko's embedded default store on SQLite (better-sqlite3) — quotes, partners, the event
 * outbox and webhook subscriptions on one file (`SqliteStores.layer`), its migrations, backups and restores.
 * @module
 */
export * as SqliteQuoteStore from "./SqliteQuoteStore.js"
export * as SqlitePartnerStore from "./SqlitePartnerStore.js"
export * as SqliteStores from "./SqliteStores.js"
export * as SqliteEventOutbox from "./SqliteEventOutbox.js"
export * as SqliteWebhookSubscriptions from "./SqliteWebhookSubscriptions.js"
export * as SqliteConnection from "./SqliteConnection.js"
export * as SqliteMigrations from "./SqliteMigrations.js"
export { SqliteOpenRefused } from "./SqliteErrors.js"
export type { SqliteOptions } from "./SqliteConnection.js"
export * as SqliteBackup from "./SqliteBackup.js"
export * as SqliteAccessRecords from "./SqliteAccessRecords.js"
