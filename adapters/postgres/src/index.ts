export * as PostgresStores from "./PostgresStores.js"
export * as PostgresMigrations from "./Migrations.js"
export { PostgresOpenRefused, type PostgresOptions } from "./PostgresStores.js"
