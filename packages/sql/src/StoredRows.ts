/**
 * Stored quotes and partners as table rows: the columns every SQL store
 * (SQLite, PostgreSQL) writes and reads, so the mapping exists once. Documents
 * are JSON text, written from validated values and parsed, not re-validated.
 * @module
 */
import { type EventOutbox, type Partner, QuoteEvents, type QuoteStore, type SubscriptionKeyRecord } from "@kasko/core"

type ClaimedDelivery = EventOutbox.ClaimedDelivery
type DeliveryRecord = EventOutbox.DeliveryRecord
type DeliveryState = EventOutbox.DeliveryState
type AttemptRecord = EventOutbox.AttemptRecord
type OutboxBacklog = EventOutbox.OutboxBacklog
type QuoteEvent = QuoteEvents.QuoteEvent
type StoredQuote = QuoteStore.StoredQuote
const { isQuoteEventType } = QuoteEvents

/** The columns of a stored quote. */
export interface QuoteRow {
  readonly quote_id: string
  readonly partner_id: string
  readonly quote_number: string
  readonly policy_number: string
  readonly product_name: string
  readonly tariff_version: string
  readonly price_amount: number
  readonly payments_per_year: number
  readonly created_at: number
  readonly activated_at: number | null
  readonly quote_json: string
  readonly worksheet_json: string
}

/** The columns a store reads back. */
export type QuoteReadRow = Pick<
  QuoteRow,
  | "quote_id"
  | "partner_id"
  | "quote_number"
  | "tariff_version"
  | "created_at"
  | "activated_at"
  | "quote_json"
  | "worksheet_json"
>

/** The columns a store reads back for a quote without its worksheet. */
export type QuoteWithoutWorksheetRow = Omit<QuoteReadRow, "worksheet_json">

/** The column list of a `SELECT` that reads a quote without its worksheet (`QuoteWithoutWorksheetRow`). */
export const QUOTE_WITHOUT_WORKSHEET_COLUMNS =
  "quote_id, partner_id, quote_number, tariff_version, created_at, activated_at, quote_json"
/** The column list of a `SELECT` that reads a quote back whole, worksheet included (`QuoteReadRow`). */
export const QUOTE_READ_COLUMNS = `${QUOTE_WITHOUT_WORKSHEET_COLUMNS}, worksheet_json`

/** A quote as its row. */
export const quoteRowOf = (quote: StoredQuote): QuoteRow => ({
  quote_id: quote.quote_id,
  partner_id: quote.partner_id,
  quote_number: quote.quote_number,
  policy_number: quote.quote.policies[0]?.policy_number ?? "",
  product_name: quote.quote.product.product_name,
  tariff_version: quote.tariff_version,
  price_amount: quote.quote.price.amount,
  payments_per_year: quote.quote.price.payments_per_year,
  created_at: quote.created_at,
  activated_at: quote.activated_at,
  quote_json: JSON.stringify(quote.quote),
  worksheet_json: JSON.stringify(quote.worksheet)
})

/** A quote without its worksheet from its row. */
export const quoteWithoutWorksheetOfRow = (row: QuoteWithoutWorksheetRow): QuoteStore.StoredQuoteWithoutWorksheet => ({
  quote_id: row.quote_id,
  partner_id: row.partner_id,
  quote_number: row.quote_number,
  created_at: row.created_at,
  activated_at: row.activated_at,
  tariff_version: row.tariff_version,
  quote: JSON.parse(row.quote_json) as StoredQuote["quote"]
})

/** A quote from its row. */
export const quoteOfRow = (row: QuoteReadRow): StoredQuote => ({
  ...quoteWithoutWorksheetOfRow(row),
  worksheet: JSON.parse(row.worksheet_json) as StoredQuote["worksheet"]
})

/** A portfolio case's columns, as both SQL stores select them: the product selection as JSON text, never the parties. */
export interface PortfolioRow {
  readonly quote_id: string
  readonly created_at: number | string
  readonly activated_at: number | string | null
  readonly tariff_version: string
  /** The quote's `product` (name, parameters, features) as JSON text. */
  readonly product_json: string
  /** The worksheet's `facts.product_name`. */
  readonly product_name: string
  /** The worksheet's `annual_total_ore` (PostgreSQL answers a bigint as text). */
  readonly annual_total_ore: number | string
}

/** A portfolio case from its row. */
export const portfolioQuoteOfRow = (row: PortfolioRow): QuoteStore.PortfolioQuote => {
  const product = JSON.parse(row.product_json) as {
    readonly parameters: Readonly<Record<string, string>>
    readonly features: ReadonlyArray<{ readonly name: string }>
  }
  return {
    quote_id: row.quote_id,
    state: row.activated_at === null ? "await_activation" : "activated",
    created_at: Number(row.created_at),
    tariff_version: row.tariff_version,
    product_name: row.product_name,
    feature: product.features[0]?.name ?? "standard",
    parameters: product.parameters,
    annual_total_ore: Number(row.annual_total_ore)
  }
}

/** A partner as its row: the columns of the `partners` table every SQL store writes and reads. */
export interface PartnerRow {
  readonly partner_id: string
  readonly name: string
  readonly cvr_number: string | null
  readonly status: "active" | "suspended"
  readonly created_at: number
  /** The products it may sell, as a JSON array; null: every product. */
  readonly products: string | null
}

/** The column list of a `SELECT` that reads a partner (`PartnerRow`). */
export const PARTNER_COLUMNS = "partner_id, name, cvr_number, status, created_at, products"
/** The column list of a `SELECT` that reads a subscription key: its prefix and hash, never the key. */
export const SUBSCRIPTION_KEY_COLUMNS = "partner_id, key_prefix, key_hash, created_at, revoked_at"

/** A subscription key as its row: the record's columns, and where it works (`production` or `sandbox`). */
export interface SubscriptionKeyRow {
  readonly partner_id: string
  readonly key_prefix: string
  readonly key_hash: string
  readonly created_at: number
  readonly revoked_at: number | null
  readonly environment: "production" | "sandbox"
}

/** The column list of a `SELECT` that reads a subscription key with where it works (`SubscriptionKeyRow`). */
export const SUBSCRIPTION_KEY_ROW_COLUMNS = "partner_id, key_prefix, key_hash, created_at, revoked_at, environment"

/** A subscription key read back from its row (`environment` only for a sandbox key). */
export const subscriptionKeyOfRow = (row: SubscriptionKeyRow): SubscriptionKeyRecord => ({
  partner_id: row.partner_id,
  key_prefix: row.key_prefix,
  key_hash: row.key_hash,
  created_at: Number(row.created_at),
  revoked_at: row.revoked_at === null ? null : Number(row.revoked_at),
  ...(row.environment === "sandbox" ? { environment: "sandbox" as const } : {})
})

/** A subscription key as its row. */
export const subscriptionKeyRowOf = (key: SubscriptionKeyRecord): SubscriptionKeyRow => ({
  partner_id: key.partner_id,
  key_prefix: key.key_prefix,
  key_hash: key.key_hash,
  created_at: key.created_at,
  revoked_at: key.revoked_at,
  environment: key.environment ?? "production"
})

/** A partner read back from its row (a `cvr_number` only when it has one). */
export const partnerOfRow = (row: PartnerRow): Partner => ({
  partner_id: row.partner_id,
  name: row.name,
  ...(row.cvr_number === null ? {} : { cvr_number: row.cvr_number }),
  status: row.status,
  created_at: row.created_at,
  ...(row.products === null ? {} : { products: JSON.parse(row.products) as ReadonlyArray<string> })
})

/** The `products` column of a partner that may sell `products` (every product when undefined). */
export const productsColumnOf = (products: ReadonlyArray<string> | undefined): string | null =>
  products === undefined ? null : JSON.stringify(products)

/** An outbox event as its row: the event's own fields, one column each. */
export type EventRow = QuoteEvent

/** The column list of a `SELECT` that reads an outbox event (`EventRow`), for `eventOfRow`. */
export const EVENT_COLUMNS = "event_id, type, occurred_at, partner_id, quote_id, payload"

/** An event read back: a type no version of kasko writes means the row is not ours. */
export const eventOfRow = (row: { readonly [column: string]: unknown }): QuoteEvent => {
  if (!isQuoteEventType(row["type"])) throw new Error(`quote event ${String(row["event_id"])} has an unknown type`)
  return {
    event_id: String(row["event_id"]),
    type: row["type"],
    occurred_at: Number(row["occurred_at"]),
    partner_id: String(row["partner_id"]),
    quote_id: String(row["quote_id"]),
    payload: String(row["payload"])
  }
}

type Row = { readonly [column: string]: unknown }

const optionalNumber = (value: unknown): number | undefined =>
  value === null || value === undefined ? undefined : Number(value)
const optionalString = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : String(value)

/** A claimed delivery from its row: the delivery's columns, the subscription's url and secret, the event's columns. */
export const claimedDeliveryOfRow = (row: Row): ClaimedDelivery => ({
  delivery_id: String(row["delivery_id"]),
  subscription_id: String(row["subscription_id"]),
  event: eventOfRow(row),
  url: String(row["url"]),
  secret: String(row["secret"]),
  attempts: Number(row["attempts"]),
  first_attempt_at: optionalNumber(row["first_attempt_at"]),
  failing_since: optionalNumber(row["failing_since"])
})

/** A delivery as listed, from its row (the event's type as `event_type`, the subscription's url). */
export const deliveryRecordOfRow = (row: Row): DeliveryRecord => ({
  delivery_id: String(row["delivery_id"]),
  event_id: String(row["event_id"]),
  event_type: row["event_type"] as QuoteEvent["type"],
  quote_id: String(row["quote_id"]),
  subscription_id: String(row["subscription_id"]),
  url: String(row["url"]),
  state: row["state"] as DeliveryState,
  attempts: Number(row["attempts"]),
  created_at: Number(row["created_at"]),
  last_attempt_at: optionalNumber(row["last_attempt_at"]),
  last_error: optionalString(row["last_error"]),
  next_attempt_at: row["state"] === "pending" ? optionalNumber(row["next_attempt_at"]) : undefined,
  attempt_log: attemptLogOf(row["attempt_log"])
})

/** A delivery's attempt log from its column: JSON text (SQLite), parsed JSON (PostgreSQL's jsonb), or none yet. */
const attemptLogOf = (column: unknown): ReadonlyArray<AttemptRecord> => {
  const entries = (typeof column === "string" ? JSON.parse(column) : (column ?? [])) as ReadonlyArray<
    Record<string, unknown>
  >
  return entries.map((entry) => ({
    at: Number(entry["at"]),
    status: optionalNumber(entry["status"]),
    error: optionalString(entry["error"])
  }))
}

/** The outbox's backlog from its counts: pending deliveries, and the oldest pending and not-fanned-out event times. */
export const backlogOf = (pending: unknown, oldestPending: unknown, oldestNew: unknown): OutboxBacklog => {
  const times = [optionalNumber(oldestPending), optionalNumber(oldestNew)].filter(
    (time): time is number => time !== undefined
  )
  return {
    pending_deliveries: Number(pending),
    oldest_undelivered_at: times.length === 0 ? undefined : Math.min(...times)
  }
}
