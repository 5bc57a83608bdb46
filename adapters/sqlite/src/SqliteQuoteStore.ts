/**
 * QuoteStore on SQLite: structured columns for what is queried, the quote
 * document and worksheet as JSON so retrieve answers exactly what create did.
 * Writes run in IMMEDIATE transactions; activation is a compare-and-set.
 * Each change writes its event to the outbox (quote_events) in its own
 * transaction: created with the insert, activated with the first activation,
 * expired with the purge that deletes an unactivated quote (a sandbox's too).
 * Inserts are committed in groups: quotes that arrive in the same turn of the
 * event loop share one transaction — one fsync with synchronous=FULL — and
 * each insert completes only once that transaction has committed.
 * @module
 */
import { EventOutbox, QuoteEvents, QuoteStore, type StorageUnavailable, WebhookSubscriptions } from "@kasko/core"
import { StoredRows } from "@kasko/sql"
import type Database from "better-sqlite3"
import { Context, Effect, Layer, Option } from "effect"
import { scopedConnection, type SqliteOptions } from "./SqliteConnection.js"
import { makeEventOutbox } from "./SqliteEventOutbox.js"
import { makeWebhookSubscriptions } from "./SqliteWebhookSubscriptions.js"
import { attempt, driverFailure, type SqliteOpenRefused } from "./SqliteErrors.js"

type StoredQuote = QuoteStore.StoredQuote
type QuoteReadRow = StoredRows.QuoteReadRow
const {
  EVENT_COLUMNS,
  QUOTE_READ_COLUMNS,
  QUOTE_WITHOUT_WORKSHEET_COLUMNS,
  quoteOfRow,
  quoteRowOf,
  quoteWithoutWorksheetOfRow
} = StoredRows

/** The QuoteStore operations over an open connection. */
export const makeQuoteStore = (
  database: Database.Database,
  onGroupCommit: (quotes: number) => void = () => undefined
): QuoteStore.QuoteStore["Service"] => {
  const insert = database.prepare(`
    INSERT INTO quotes (quote_id, partner_id, quote_number, policy_number, product_name, tariff_version,
                        price_amount, payments_per_year, created_at, activated_at, quote_json, worksheet_json)
    VALUES (@quote_id, @partner_id, @quote_number, @policy_number, @product_name, @tariff_version,
            @price_amount, @payments_per_year, @created_at, @activated_at, @quote_json, @worksheet_json)`)
  const select = database.prepare<[string, string], QuoteReadRow>(
    `SELECT ${QUOTE_READ_COLUMNS} FROM quotes WHERE partner_id = ? AND quote_id = ?`
  )
  const selectWithoutWorksheet = database.prepare<[string, string], StoredRows.QuoteWithoutWorksheetRow>(
    `SELECT ${QUOTE_WITHOUT_WORKSHEET_COLUMNS} FROM quotes WHERE partner_id = ? AND quote_id = ?`
  )
  const activate = database.prepare<[number, string, string]>(
    "UPDATE quotes SET activated_at = ? WHERE partner_id = ? AND quote_id = ? AND activated_at IS NULL"
  )
  const purge = database.prepare<[number, number]>(`
    DELETE FROM quotes
    WHERE (activated_at IS NULL AND created_at <= ?) OR (activated_at IS NOT NULL AND created_at <= ?)`)
  // a partner's sandbox is the owner `sandbox:<partner_id>` (Sandbox.ts): its quotes go after 7 days, in any state
  const purgeSandbox = database.prepare<[number]>(
    "DELETE FROM quotes WHERE partner_id LIKE 'sandbox:%' AND created_at <= ?"
  )
  // the unactivated quotes a purge deletes, a sandbox's after 7 days (none when the sandbox's cutoff is null)
  const selectExpiring = database.prepare<[number, number | null], QuoteReadRow>(
    `SELECT ${QUOTE_READ_COLUMNS} FROM quotes
     WHERE activated_at IS NULL AND (created_at <= ? OR (partner_id LIKE 'sandbox:%' AND created_at <= ?))`
  )
  // the product selection and two figures of the worksheet: the parties in quote_json are never read out
  const selectPortfolio = database.prepare<[string, number], StoredRows.PortfolioRow>(`
    SELECT quote_id, created_at, activated_at, tariff_version,
           json_extract(quote_json, '$.product') AS product_json,
           json_extract(worksheet_json, '$.facts.product_name') AS product_name,
           json_extract(worksheet_json, '$.annual_total_ore') AS annual_total_ore
    FROM quotes WHERE quote_id > ? AND partner_id NOT LIKE 'sandbox:%' ORDER BY quote_id LIMIT ?`)
  const insertEvent = database.prepare<[QuoteEvents.QuoteEvent]>(
    `INSERT INTO quote_events (${EVENT_COLUMNS}) VALUES (@event_id, @type, @occurred_at, @partner_id, @quote_id, @payload)
     ON CONFLICT (event_id) DO NOTHING`
  )
  const pruneDeliveries = database.prepare<[number]>(
    "DELETE FROM webhook_deliveries WHERE event_id IN (SELECT event_id FROM quote_events WHERE occurred_at <= ?)"
  )
  const pruneEvents = database.prepare<[number]>("DELETE FROM quote_events WHERE occurred_at <= ?")

  const selectKeyUse = database.prepare<
    [string, string],
    { fingerprint: string; quote_id: string; created_at: number }
  >("SELECT fingerprint, quote_id, created_at FROM idempotency_keys WHERE partner_id = ? AND idempotency_key = ?")
  const deleteKeyUse = database.prepare<[string, string]>(
    "DELETE FROM idempotency_keys WHERE partner_id = ? AND idempotency_key = ?"
  )
  const insertKeyUse = database.prepare<[string, string, string, string, number]>(
    "INSERT INTO idempotency_keys (partner_id, idempotency_key, fingerprint, quote_id, created_at) VALUES (?, ?, ?, ?, ?)"
  )

  type Earlier = Option.Option<{ readonly quote: StoredQuote; readonly fingerprint: string }>
  type Waiting = {
    readonly quote: StoredQuote
    readonly key: QuoteStore.IdempotencyKeyUse | undefined
    readonly resume: (outcome: Effect.Effect<Earlier, StorageUnavailable>) => void
  }

  /** Stores one waiting quote inside the group's transaction; an earlier use of its key wins. */
  const storeOne = ({ quote, key }: Waiting): Earlier => {
    if (key !== undefined) {
      const earlier = selectKeyUse.get(quote.partner_id, key.key)
      if (earlier !== undefined && earlier.created_at > key.unused_before) {
        const earlierRow = select.get(quote.partner_id, earlier.quote_id)
        if (earlierRow !== undefined)
          return Option.some({ quote: quoteOfRow(earlierRow), fingerprint: earlier.fingerprint })
      }
      if (earlier !== undefined) deleteKeyUse.run(quote.partner_id, key.key)
    }
    insert.run(quoteRowOf(quote))
    insertEvent.run(QuoteEvents.quoteCreated(quote))
    if (key !== undefined)
      insertKeyUse.run(quote.partner_id, key.key, key.fingerprint, quote.quote_id, quote.created_at)
    return Option.none()
  }
  const storeAll = database.transaction((group: ReadonlyArray<Waiting>) => group.map(storeOne))

  let waiting: Array<Waiting> = []
  /** Each quote's outcome: the group in one transaction, or, when that fails, one transaction each. */
  const commitGroup = (
    group: ReadonlyArray<Waiting>
  ): { readonly together: boolean; readonly outcomes: Array<Effect.Effect<Earlier, StorageUnavailable>> } => {
    try {
      return { together: true, outcomes: storeAll.immediate(group).map((earlier) => Effect.succeed(earlier)) }
    } catch (error) {
      return { together: false, outcomes: oneByOne(group, error) }
    }
  }
  const oneByOne = (
    group: ReadonlyArray<Waiting>,
    error: unknown
  ): Array<Effect.Effect<Earlier, StorageUnavailable>> => {
    if (group.length === 1) return [driverFailure("insert quote", error)]
    // one bad quote must not fail the others: commit them one by one
    return group.map((entry) => {
      try {
        return Effect.succeed(storeAll.immediate([entry])[0]!)
      } catch (single) {
        return driverFailure("insert quote", single)
      }
    })
  }
  const commitWaiting = () => {
    const group = waiting
    waiting = []
    if (group.length === 0) return
    const { together, outcomes } = commitGroup(group)
    if (together) onGroupCommit(group.length)
    // Answers go out only after the database work: Effect 4 runs a resumed request on the spot, its exit
    // observers included, and what they throw is theirs — never a database failure, never a reason to
    // leave the rest of the group unanswered. It is thrown again on its own, as an uncaught exception.
    for (const [index, outcome] of outcomes.entries()) {
      try {
        group[index]!.resume(outcome)
      } catch (thrown) {
        queueMicrotask(() => {
          throw thrown
        })
      }
    }
  }
  const enqueue = (quote: StoredQuote, key: QuoteStore.IdempotencyKeyUse | undefined) =>
    Effect.callback<Earlier, StorageUnavailable>((resume) => {
      const entry: Waiting = { quote, key, resume }
      waiting.push(entry)
      if (waiting.length === 1) setImmediate(commitWaiting)
      // interrupted before its group commits (a request over its time budget), the quote is never stored;
      // a group commits synchronously, so it is either wholly before or wholly after any interruption
      return Effect.sync(() => {
        const index = waiting.indexOf(entry)
        if (index !== -1) waiting.splice(index, 1)
      })
    })
  const activateQuote = database.transaction((partnerId: string, quoteId: string, activatedAt: number) => {
    const { changes } = activate.run(activatedAt, partnerId, quoteId)
    const row = select.get(partnerId, quoteId)
    if (changes === 1 && row !== undefined) insertEvent.run(QuoteEvents.quoteActivated(quoteOfRow(row)))
    return row
  })
  const recordProbe = database.prepare<[string]>(
    "INSERT INTO store_info (key, value) VALUES ('write_probe', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
  )
  const probeWrite = database.transaction((at: string) => void recordProbe.run(at))
  const purgeQuotes = database.transaction(
    (awaitingCutoff: number, activatedCutoff: number, sandboxCutoff: number | undefined) => {
      for (const row of selectExpiring.all(awaitingCutoff, sandboxCutoff ?? null))
        insertEvent.run(QuoteEvents.quoteExpired(quoteOfRow(row)))
      const deleted =
        purge.run(awaitingCutoff, activatedCutoff).changes +
        (sandboxCutoff === undefined ? 0 : purgeSandbox.run(sandboxCutoff).changes)
      // events are kept as long as the longest-kept quotes: by then every delivery has long ended
      pruneDeliveries.run(activatedCutoff)
      pruneEvents.run(activatedCutoff)
      return deleted
    }
  )

  return {
    insert: (quote) => Effect.asVoid(enqueue(quote, undefined)),
    insertIdempotent: (quote, key) => enqueue(quote, key),
    find: (partnerId, quoteId) =>
      attempt("find quote", () => select.get(partnerId, quoteId)).pipe(
        Effect.map((row) => Option.map(Option.fromNullishOr(row), quoteOfRow))
      ),
    findWithoutWorksheet: (partnerId, quoteId) =>
      attempt("find quote", () => selectWithoutWorksheet.get(partnerId, quoteId)).pipe(
        Effect.map((row) => Option.map(Option.fromNullishOr(row), quoteWithoutWorksheetOfRow))
      ),
    markActivated: (partnerId, quoteId, activatedAt) =>
      attempt("activate quote", () => activateQuote.immediate(partnerId, quoteId, activatedAt)).pipe(
        Effect.map((row) => Option.map(Option.fromNullishOr(row), quoteOfRow))
      ),
    purge: ({ awaitingCreatedAtOrBefore, activatedCreatedAtOrBefore, sandboxCreatedAtOrBefore }) =>
      attempt("purge quotes", () =>
        purgeQuotes.immediate(awaitingCreatedAtOrBefore, activatedCreatedAtOrBefore, sandboxCreatedAtOrBefore)
      ),
    listPortfolio: ({ after, limit }) =>
      attempt("list the portfolio", () => selectPortfolio.all(after ?? "", limit)).pipe(
        Effect.map((rows) => rows.map(StoredRows.portfolioQuoteOfRow))
      ),
    checkWritable: Effect.clockWith((clock) =>
      attempt("probe a write", () => probeWrite.immediate(new Date(clock.currentTimeMillisUnsafe()).toISOString()))
    )
  }
}

/** The SQLite QuoteStore as a Layer: opens (or creates and migrates) the file, closes it cleanly with the scope. */
export const layer = (
  options: SqliteOptions
): Layer.Layer<
  QuoteStore.QuoteStore | EventOutbox.EventOutbox | WebhookSubscriptions.WebhookSubscriptions,
  StorageUnavailable | SqliteOpenRefused
> =>
  Layer.effectContext(
    Effect.map(scopedConnection(options), (database) =>
      Context.make(QuoteStore.QuoteStore, makeQuoteStore(database, options.onGroupCommit)).pipe(
        Context.add(EventOutbox.EventOutbox, makeEventOutbox(database)),
        Context.add(WebhookSubscriptions.WebhookSubscriptions, makeWebhookSubscriptions(database))
      )
    )
  )
