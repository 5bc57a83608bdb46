/**
 * What the SQL stores (@kasko/sqlite, @kasko/postgres) share, so that the core
 * holds no column name: the rows a quote, a partner, an event and a delivery are
 * stored as, and the plan that applies a dialect's migrations in order.
 * @module
 */
export * as SchemaMigrations from "./SchemaMigrations.js"
export * as StoredRows from "./StoredRows.js"
