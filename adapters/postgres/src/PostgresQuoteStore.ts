/**
 * The QuoteStore on PostgreSQL, over a pool: activation is a compare-and-set on
 * the row; an idempotency key is claimed by a unique index, so of concurrent
 * creations under one key — on any instance — one commits and the others
 * answer its quote. Each change writes its event to the outbox (quote_events)
 * in the same transaction, or the same statement.
 */
import { QuoteEvents, type QuoteStore } from "@kasko/core"
import { StoredRows } from "@kasko/sql"
import { Effect, Option } from "effect"
import type pg from "pg"
import { attempt, driverFailure } from "./PostgresErrors.js"
import { transaction } from "./Transaction.js"

type StoredQuote = QuoteStore.StoredQuote
type QuoteReadRow = StoredRows.QuoteReadRow
const {
  QUOTE_READ_COLUMNS: QUOTE_COLUMNS,
  QUOTE_WITHOUT_WORKSHEET_COLUMNS,
  quoteOfRow,
  quoteWithoutWorksheetOfRow,
  quoteRowOf,
  EVENT_COLUMNS
} = StoredRows

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

/** The QuoteStore operations over a pool. */
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
    findWithoutWorksheet: (partnerId, quoteId) =>
      attempt("find quote", () =>
        pool.query<StoredRows.QuoteWithoutWorksheetRow>(
          `SELECT ${QUOTE_WITHOUT_WORKSHEET_COLUMNS} FROM quotes WHERE partner_id = $1 AND quote_id = $2`,
          [partnerId, quoteId]
        )
      ).pipe(Effect.map((result) => Option.map(Option.fromNullishOr(result.rows[0]), quoteWithoutWorksheetOfRow))),
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
    purge: ({ awaitingCreatedAtOrBefore, activatedCreatedAtOrBefore, sandboxCreatedAtOrBefore }) =>
      transaction(pool, "purge quotes", async (statement) => {
        // the unactivated quotes this purge deletes expired, a sandbox's (`sandbox:<partner_id>`, Sandbox.ts) after
        // 7 days: their events go in with the deletion
        const expiring = await statement<QuoteReadRow>(
          `DELETE FROM quotes WHERE activated_at IS NULL
             AND (created_at <= $1 OR (partner_id LIKE 'sandbox:%' AND created_at <= $2::bigint))
           RETURNING ${QUOTE_COLUMNS}`,
          [awaitingCreatedAtOrBefore, sandboxCreatedAtOrBefore ?? null]
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
        // a partner's sandbox is the owner `sandbox:<partner_id>` (Sandbox.ts): its quotes go after 7 days, in any
        // state (those awaiting activation went above, with their events)
        const sandbox =
          sandboxCreatedAtOrBefore === undefined
            ? undefined
            : await statement("DELETE FROM quotes WHERE partner_id LIKE 'sandbox:%' AND created_at <= $1", [
                sandboxCreatedAtOrBefore
              ])
        // events are kept as long as the longest-kept quotes: by then every delivery has long ended
        await statement(
          "DELETE FROM webhook_deliveries WHERE event_id IN (SELECT event_id FROM quote_events WHERE occurred_at <= $1)",
          [activatedCreatedAtOrBefore]
        )
        await statement("DELETE FROM quote_events WHERE occurred_at <= $1", [activatedCreatedAtOrBefore])
        return expiring.rows.length + (activated.rowCount ?? 0) + (sandbox?.rowCount ?? 0)
      }),
    // the product selection and two figures of the worksheet: the parties in quote_json are never read out
    listPortfolio: ({ after, limit }) =>
      attempt("list the portfolio", () =>
        pool.query<StoredRows.PortfolioRow>(
          `SELECT quote_id, created_at, activated_at, tariff_version,
                  (quote_json::jsonb -> 'product')::text AS product_json,
                  worksheet_json::jsonb #>> '{facts,product_name}' AS product_name,
                  (worksheet_json::jsonb ->> 'annual_total_ore')::bigint AS annual_total_ore
           FROM quotes WHERE quote_id > $1 AND partner_id NOT LIKE 'sandbox:%' ORDER BY quote_id LIMIT $2`,
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
