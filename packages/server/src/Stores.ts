/**
 * Where quotes, partners and webhooks live: PostgreSQL when KASKO_DATABASE_URL is set,
 * the embedded SQLite file in the data directory otherwise. The service and
 * the administration commands open the same stores.
 */
import type { EventOutbox, PartnerStore, QuoteStore, WebhookSubscriptions } from "@kasko/core"
import { PostgresStores } from "@kasko/postgres"
import { SqliteStores } from "@kasko/sqlite"
import { type Layer, Option } from "effect"
import { join } from "node:path"
import type { ServiceConfig } from "./ServiceConfig.js"

/** The database file inside the data directory. */
export const databaseFile = (config: ServiceConfig) => join(config.dataDirectory, "kasko.db")

/** Which database the configuration names. */
export const storeKindOf = (config: ServiceConfig): "sqlite" | "postgres" =>
  Option.isSome(config.databaseUrl) ? "postgres" : "sqlite"

/** The stores the configuration names. */
export const storesLayer = (
  config: ServiceConfig,
  observers: {
    readonly onGroupCommit?: (quotes: number) => void
    readonly watchPool?: (state: () => PostgresStores.PoolState) => void
  } = {}
): Layer.Layer<
  | QuoteStore.QuoteStore
  | PartnerStore.PartnerStore
  | EventOutbox.EventOutbox
  | WebhookSubscriptions.WebhookSubscriptions,
  unknown
> =>
  Option.isSome(config.databaseUrl)
    ? PostgresStores.layer({
        connectionString: config.databaseUrl.value,
        schema: config.databaseSchema,
        ...(observers.watchPool === undefined ? {} : { watchPool: observers.watchPool })
      })
    : SqliteStores.layer({
        filename: databaseFile(config),
        synchronous: config.sqliteSynchronous,
        ...(observers.onGroupCommit === undefined ? {} : { onGroupCommit: observers.onGroupCommit })
      })

/** Where the service keeps its data, for messages. */
export const databaseName = (config: ServiceConfig) =>
  Option.isSome(config.databaseUrl) ? `PostgreSQL schema ${config.databaseSchema}` : databaseFile(config)
