/**
 * kasko's stores on PostgreSQL, over one connection pool, for several service
 * instances sharing one database: the pool, the schema and its migrations, and
 * the Layer of the QuoteStore (PostgresQuoteStore.ts), the PartnerStore
 * (PostgresPartnerStore.ts), the event outbox and the webhook subscriptions.
 * Partner and key changes are notified to every instance (PartnerChanges.ts).
 * @module
 */
import { EventOutbox, PartnerStore, QuoteStore, StorageUnavailable, WebhookSubscriptions } from "@kasko/core"
import { SchemaMigrations } from "@kasko/sql"
import { Context, Data, Effect, Layer } from "effect"
import pg from "pg"
import { listen } from "./PartnerChanges.js"
import { makeEventOutbox } from "./PostgresEventOutbox.js"
import { migrate } from "./PostgresMigrations.js"
import { makePartnerStore } from "./PostgresPartnerStore.js"
import { makeQuoteStore } from "./PostgresQuoteStore.js"
import { makeWebhookSubscriptions } from "./PostgresWebhookSubscriptions.js"

// where embedders and tests have reached them: PostgresStores.makeQuoteStore, PostgresStores.makePartnerStore
export { makePartnerStore } from "./PostgresPartnerStore.js"
export { makeQuoteStore } from "./PostgresQuoteStore.js"

/** Where the PostgreSQL stores keep their tables (the database, the schema) and how their pool is sized and watched. */
export interface PostgresOptions {
  /** `postgres://user@host:5432/database` */
  readonly connectionString: string
  /** The schema kasko's tables live in (created when missing); `public` by default. */
  readonly schema?: string
  /** Connections in the pool; 10 by default. */
  readonly poolSize?: number
  /** Given, once the pool exists, what reads its state (for metrics). */
  readonly watchPool?: (state: () => PoolState) => void
}

/** The pool's connections at a moment, and the queries waiting for one. */
export interface PoolState {
  readonly total: number
  readonly idle: number
  readonly waiting: number
}

/** The database cannot be used safely: its schema is newer or was edited. */
export class PostgresOpenRefused extends Data.TaggedError("PostgresOpenRefused")<{ readonly reason: string }> {
  // what `kasko serve` prints when it cannot start: the reason, as SqliteOpenRefused gives it
  override get message() {
    return this.reason
  }
}

const INT8 = 20
// epoch milliseconds fit a double exactly: read bigint columns as numbers
const types = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    oid === INT8 ? Number : pg.types.getTypeParser(oid, format as "text")
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * The stores on one pool: connects, creates the schema if needed, and migrates;
 * listens for partner changes from the first read of `changes` on; closes the
 * listener and the pool with the scope.
 */
export const layer = (
  options: PostgresOptions
): Layer.Layer<
  | QuoteStore.QuoteStore
  | PartnerStore.PartnerStore
  | EventOutbox.EventOutbox
  | WebhookSubscriptions.WebhookSubscriptions,
  StorageUnavailable | PostgresOpenRefused
> =>
  Layer.effectContext(
    Effect.gen(function* () {
      const schema = options.schema ?? "public"
      if (!SCHEMA_NAME.test(schema))
        return yield* new PostgresOpenRefused({ reason: `schema "${schema}" is not a plain lower-case identifier` })
      const pool = yield* Effect.acquireRelease(
        Effect.sync(
          () =>
            new pg.Pool({
              connectionString: options.connectionString,
              max: options.poolSize ?? 10,
              options: `-c search_path=${schema}`,
              // names this service's connections in pg_stat_activity
              application_name: `kasko:${schema}`,
              types
            })
        ),
        (pool) => Effect.promise(() => pool.end())
      )
      // A client whose connection dies emits 'error', and an 'error' nobody listens to crashes the process.
      // The pool re-emits an idle client's error as its own; a checked-out client (in a transaction, migrating)
      // has no listener but this one, which every client gets once, on connecting. Swallowing is safe: the
      // statement in flight, or the next one, fails with the loss, and a broken client is discarded on release.
      pool.on("error", () => undefined)
      pool.on("connect", (client) => client.on("error", () => undefined))
      options.watchPool?.(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }))
      yield* Effect.tryPromise({
        try: async () => {
          const client = await pool.connect()
          let failure: Error | undefined
          try {
            await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
            await migrate(client)
          } catch (error) {
            failure = error instanceof Error ? error : new Error(String(error))
            throw error
          } finally {
            // after a failure the session may still hold the migration lock: discard it rather than pool it
            client.release(failure)
          }
        },
        catch: (error) =>
          error instanceof SchemaMigrations.MigrationRefused
            ? new PostgresOpenRefused({ reason: error.message })
            : new StorageUnavailable({ reason: `opening ${schema}: ${String(error)}`, retryable: true })
      })
      // only once the schema is open (a refused one has no listener); it stops before the pool closes
      const changes = yield* listen({ connectionString: options.connectionString, schema })
      return Context.make(QuoteStore.QuoteStore, makeQuoteStore(pool)).pipe(
        Context.add(PartnerStore.PartnerStore, makePartnerStore(pool, changes)),
        Context.add(EventOutbox.EventOutbox, makeEventOutbox(pool)),
        Context.add(WebhookSubscriptions.WebhookSubscriptions, makeWebhookSubscriptions(pool))
      )
    })
  )
