/**
 * QuoteStore and PartnerStore on PostgreSQL, over one connection pool, for
 * several service instances sharing one database. Activation is a
 * compare-and-set on the row; an idempotency key is claimed by a unique index,
 * so of concurrent creations under one key — on any instance — one commits and
 * the others answer its quote. Each change writes its event to the outbox
 * (quote_events) in the same transaction, or the same statement. Partner and
 * key changes are notified to every instance (PartnerChanges.ts), so that
 * authentication can remember keys that checked out.
 */
import type { SubscriptionKeyRecord } from "@kasko/core"
import {
  EventOutbox,
  PartnerStore,
  QuoteEvents,
  QuoteStore,
  StorageUnavailable,
  WebhookSubscriptions
} from "@kasko/core"
import { SchemaMigrations, StoredRows } from "@kasko/sql"
import { Context, Data, Effect, Layer, Option } from "effect"
import pg from "pg"
import { migrate } from "./PostgresMigrations.js"
import { listen } from "./PartnerChanges.js"
import { makeEventOutbox } from "./PostgresEventOutbox.js"
import { makeWebhookSubscriptions } from "./PostgresWebhookSubscriptions.js"
import { attempt, driverFailure } from "./PostgresErrors.js"
import { transaction } from "./Transaction.js"

type StoredQuote = QuoteStore.StoredQuote

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
export class PostgresOpenRefused extends Data.TaggedError("PostgresOpenRefused")<{ readonly reason: string }> {}

const INT8 = 20
// epoch milliseconds fit a double exactly: read bigint columns as numbers
const types = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    oid === INT8 ? Number : pg.types.getTypeParser(oid, format as "text")
}

type QuoteReadRow = StoredRows.QuoteReadRow
const {
  QUOTE_READ_COLUMNS: QUOTE_COLUMNS,
  quoteOfRow,
  quoteRowOf,
  PARTNER_COLUMNS,
  partnerOfRow,
  SUBSCRIPTION_KEY_COLUMNS: KEY_COLUMNS,
  EVENT_COLUMNS
} = StoredRows
type PartnerRow = StoredRows.PartnerRow

const INSERT_QUOTE = `INSERT INTO quotes (quote_id, partner_id, quote_number, policy_number, product_name, tariff_version, price_amount,
  payments_per_year, created_at, activated_at, quote_json, worksheet_json) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`

const INSERT_EVENT = `INSERT INTO quote_events (${EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (event_id) DO NOTHING`

const eventValues = (event: QuoteEvents.QuoteEvent) => [
  event.event_id,
  event.type,
  event.occurred_at,
  event.partner_id,
  event.quote_id,
  event.payload
]

/** Many events in one statement, column by column. */
const INSERT_EVENTS = `INSERT INTO quote_events (${EVENT_COLUMNS})
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[])
  ON CONFLICT (event_id) DO NOTHING`

/** The quote and its created event in one statement: no extra round trip, and atomic on its own. */
const INSERT_QUOTE_WITH_EVENT = `WITH stored AS (${INSERT_QUOTE} RETURNING quote_id)
  INSERT INTO quote_events (${EVENT_COLUMNS}) SELECT $13, $14, $15::bigint, $16, $17, $18 FROM stored`

const quoteWithEventValues = (quote: StoredQuote) => [
  ...quoteValues(quote),
  ...eventValues(QuoteEvents.quoteCreated(quote))
]

const quoteValues = (quote: StoredQuote) => {
  const row = quoteRowOf(quote)
  return [
    row.quote_id,
    row.partner_id,
    row.quote_number,
    row.policy_number,
    row.product_name,
    row.tariff_version,
    row.price_amount,
    row.payments_per_year,
    row.created_at,
    row.activated_at,
    row.quote_json,
    row.worksheet_json
  ]
}

export const makeQuoteStore = (pool: pg.Pool): QuoteStore.QuoteStore["Service"] => {
  const find = (partnerId: string, quoteId: string) =>
    pool.query<QuoteReadRow>(`SELECT ${QUOTE_COLUMNS} FROM quotes WHERE partner_id = $1 AND quote_id = $2`, [
      partnerId,
      quoteId
    ])
  const earlierUse = async (partnerId: string, key: string) => {
    const rows = await pool.query<QuoteReadRow & { fingerprint: string }>(
      `SELECT k.fingerprint, ${QUOTE_COLUMNS.split(", ")
        .map((column) => `q.${column}`)
        .join(", ")}
       FROM idempotency_keys k JOIN quotes q ON q.quote_id = k.quote_id WHERE k.partner_id = $1 AND k.idempotency_key = $2`,
      [partnerId, key]
    )
    const row = rows.rows[0]
    return row === undefined ? undefined : { quote: quoteOfRow(row), fingerprint: row.fingerprint }
  }
  /** Stores the quote under the key unless the key names a live earlier quote: answers whether this transaction claimed it. */
  const claim = (quote: StoredQuote, use: QuoteStore.IdempotencyKeyUse) =>
    transaction(
      pool,
      "insert quote",
      async (statement) => {
        await statement(
          "DELETE FROM idempotency_keys WHERE partner_id = $1 AND idempotency_key = $2 AND created_at <= $3",
          [quote.partner_id, use.key, use.unused_before]
        )
        await statement(INSERT_QUOTE_WITH_EVENT, quoteWithEventValues(quote))
        // a concurrent claim of the same key waits here for the first to finish, then yields
        const claimed = await statement(
          `INSERT INTO idempotency_keys (partner_id, idempotency_key, fingerprint, quote_id, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (partner_id, idempotency_key) DO NOTHING`,
          [quote.partner_id, use.key, use.fingerprint, quote.quote_id, quote.created_at]
        )
        return claimed.rowCount === 1
      },
      // lost the key: the quote inserted before is rolled back with it
      (claimed) => claimed
    )
  return {
    insert: (quote) =>
      transaction(pool, "insert quote", (statement) =>
        statement(INSERT_QUOTE_WITH_EVENT, quoteWithEventValues(quote))
      ).pipe(Effect.asVoid),
    insertIdempotent: (quote, use) =>
      Effect.gen(function* () {
        for (let tries = 0; tries < 3; tries++) {
          if (yield* claim(quote, use)) return Option.none()
          const earlier = yield* attempt("find the idempotency key's quote", () =>
            earlierUse(quote.partner_id, use.key)
          )
          if (earlier !== undefined) return Option.some(earlier)
          // the claim that beat ours rolled back: try again
        }
        return yield* driverFailure("insert quote", new Error(`idempotency key ${use.key} kept changing hands`))
      }),
    find: (partnerId, quoteId) =>
      attempt("find quote", () => find(partnerId, quoteId)).pipe(
        Effect.map((result) => Option.map(Option.fromNullishOr(result.rows[0]), quoteOfRow))
      ),
    markActivated: (partnerId, quoteId, activatedAt) =>
      transaction(pool, "activate quote", async (statement) => {
        // compare-and-set on the row; a concurrent activation waits for the row lock and then finds it set
        const updated = await statement<QuoteReadRow>(
          `UPDATE quotes SET activated_at = $3 WHERE partner_id = $1 AND quote_id = $2 AND activated_at IS NULL RETURNING ${QUOTE_COLUMNS}`,
          [partnerId, quoteId, activatedAt]
        )
        const activated = updated.rows[0]
        if (activated !== undefined) {
          await statement(INSERT_EVENT, eventValues(QuoteEvents.quoteActivated(quoteOfRow(activated))))
          return activated
        }
        // a new statement, so a new snapshot: it sees the activation that won
        return (
          await statement<QuoteReadRow>(`SELECT ${QUOTE_COLUMNS} FROM quotes WHERE partner_id = $1 AND quote_id = $2`, [
            partnerId,
            quoteId
          ])
        ).rows[0]
      }).pipe(Effect.map((row) => Option.map(Option.fromNullishOr(row), quoteOfRow))),
    purge: ({ awaitingCreatedAtOrBefore, activatedCreatedAtOrBefore }) =>
      transaction(pool, "purge quotes", async (statement) => {
        // the unactivated quotes this purge deletes expired: their events go in with the deletion
        const expiring = await statement<QuoteReadRow>(
          `DELETE FROM quotes WHERE activated_at IS NULL AND created_at <= $1 RETURNING ${QUOTE_COLUMNS}`,
          [awaitingCreatedAtOrBefore]
        )
        const events = expiring.rows.map((row) => eventValues(QuoteEvents.quoteExpired(quoteOfRow(row))))
        if (events.length > 0)
          await statement(
            INSERT_EVENTS,
            [0, 1, 2, 3, 4, 5].map((column) => events.map((values) => values[column]))
          )
        const activated = await statement("DELETE FROM quotes WHERE activated_at IS NOT NULL AND created_at <= $1", [
          activatedCreatedAtOrBefore
        ])
        // events are kept as long as the longest-kept quotes: by then every delivery has long ended
        await statement(
          "DELETE FROM webhook_deliveries WHERE event_id IN (SELECT event_id FROM quote_events WHERE occurred_at <= $1)",
          [activatedCreatedAtOrBefore]
        )
        await statement("DELETE FROM quote_events WHERE occurred_at <= $1", [activatedCreatedAtOrBefore])
        return expiring.rows.length + (activated.rowCount ?? 0)
      }),
    // the product selection and two figures of the worksheet: the parties in quote_json are never read out
    listPortfolio: ({ after, limit }) =>
      attempt("list the portfolio", () =>
        pool.query<StoredRows.PortfolioRow>(
          `SELECT quote_id, created_at, activated_at, tariff_version,
                  (quote_json::jsonb -> 'product')::text AS product_json,
                  worksheet_json::jsonb #>> '{facts,product_name}' AS product_name,
                  (worksheet_json::jsonb ->> 'annual_total_ore')::bigint AS annual_total_ore
           FROM quotes WHERE quote_id > $1 ORDER BY quote_id LIMIT $2`,
          [after ?? "", limit]
        )
      ).pipe(Effect.map((result) => result.rows.map(StoredRows.portfolioQuoteOfRow))),
    checkWritable: Effect.clockWith((clock) =>
      attempt("probe a write", () =>
        pool.query(
          "INSERT INTO store_info (key, value) VALUES ('write_probe', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
          [new Date(clock.currentTimeMillisUnsafe()).toISOString()]
        )
      )
    ).pipe(Effect.asVoid)
  }
}

// another instance's writes are invisible without a listener: every read is new, so nothing is remembered
const newEveryRead = () => {
  let reads = 0
  return Effect.sync(() => ++reads)
}

/**
 * The PartnerStore operations over a pool. `changes` moves with this store's
 * own writes at once, and with what `elsewhere` tells of other writers: `layer`
 * gives the listener's generation (PartnerChanges.ts); without one, every read
 * is new and nothing is remembered.
 */
export const makePartnerStore = (
  pool: pg.Pool,
  elsewhere: Effect.Effect<unknown, StorageUnavailable> = newEveryRead()
): PartnerStore.PartnerStore["Service"] => {
  // counted when the write has answered, committed or not: its notification may come later than the next read
  let ownWrites = 0
  const written = Effect.ensuring(
    Effect.sync(() => {
      ownWrites++
    })
  )
  return {
    insertPartner: (partner) =>
      attempt("insert partner", () =>
        pool.query(
          `INSERT INTO partners (${PARTNER_COLUMNS}) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (partner_id) DO NOTHING`,
          [partner.partner_id, partner.name, partner.cvr_number ?? null, partner.status, partner.created_at]
        )
      ).pipe(
        Effect.map((result) => result.rowCount === 1),
        written
      ),
    findPartner: (partnerId) =>
      attempt("find partner", () =>
        pool.query<PartnerRow>(`SELECT ${PARTNER_COLUMNS} FROM partners WHERE partner_id = $1`, [partnerId])
      ).pipe(Effect.map((result) => Option.map(Option.fromNullishOr(result.rows[0]), partnerOfRow))),
    listPartners: attempt("list partners", () =>
      pool.query<PartnerRow>(`SELECT ${PARTNER_COLUMNS} FROM partners ORDER BY partner_id`)
    ).pipe(Effect.map((result) => result.rows.map(partnerOfRow))),
    setPartnerStatus: (partnerId, status) =>
      attempt("set partner status", () =>
        pool.query<PartnerRow>(`UPDATE partners SET status = $2 WHERE partner_id = $1 RETURNING ${PARTNER_COLUMNS}`, [
          partnerId,
          status
        ])
      ).pipe(
        Effect.map((result) => Option.map(Option.fromNullishOr(result.rows[0]), partnerOfRow)),
        written
      ),
    insertSubscriptionKey: (key) =>
      attempt("insert subscription key", () =>
        pool.query(`INSERT INTO subscription_keys (${KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5)`, [
          key.partner_id,
          key.key_prefix,
          key.key_hash,
          key.created_at,
          key.revoked_at
        ])
      ).pipe(Effect.asVoid, written),
    findSubscriptionKey: (keyPrefix) =>
      attempt("find subscription key", () =>
        pool.query<SubscriptionKeyRecord>(`SELECT ${KEY_COLUMNS} FROM subscription_keys WHERE key_prefix = $1`, [
          keyPrefix
        ])
      ).pipe(Effect.map((result) => Option.fromNullishOr(result.rows[0]))),
    listSubscriptionKeys: (partnerId) =>
      attempt("list subscription keys", () =>
        pool.query<SubscriptionKeyRecord>(
          `SELECT ${KEY_COLUMNS} FROM subscription_keys WHERE partner_id = $1 ORDER BY created_at, key_prefix`,
          [partnerId]
        )
      ).pipe(Effect.map((result) => result.rows)),
    revokeSubscriptionKeys: (partnerId, keyPrefix, revokedAt) =>
      attempt("revoke subscription keys", () =>
        pool.query(
          "UPDATE subscription_keys SET revoked_at = $3 WHERE partner_id = $1 AND revoked_at IS NULL AND left(key_prefix, length($2)) = $2",
          [partnerId, keyPrefix, revokedAt]
        )
      ).pipe(
        Effect.map((result) => result.rowCount ?? 0),
        written
      ),
    changes: Effect.map(elsewhere, (value) => `${String(value)}:${ownWrites}`)
  }
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
