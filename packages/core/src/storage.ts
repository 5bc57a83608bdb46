/**
 * `@kasko/core/storage`: what the SQL store adapters share and an embedder
 * never needs — the rows a quote and a partner are stored as, and the
 * migration plan.
 */
export * as SchemaMigrations from "./SchemaMigrations.js"
export * as StoredRows from "./StoredRows.js"
