/**
 * What happened to a quote, as partners learn it (DESIGN: events, spec §6
 * leaves them open): created, activated, or expired — a quote that reached
 * its 30 days unactivated (a sandbox's quote its 7). Each happens at most once to a quote, so an
 * event's id is made from the quote's id and the event's type: a store that
 * writes one twice writes the same row, and a receiver can deduplicate on it.
 * The payload is the quote's public form at that moment, as GET answers it.
 * @module
 */
import { dateTimeOfMillis } from "../input/CalendarDate.js"
import type { StoredQuote } from "../ports/QuoteStore.js"
import { isSandboxOwner, partnerOfOwner } from "../partner/Sandbox.js"
import { expiresAt, retrievedForm, type RetrievedQuote } from "../quote/QuoteLifecycle.js"

/** Every type of quote event, as webhooks name them and subscriptions choose among them. */
export const QUOTE_EVENT_TYPES = ["quote.created", "quote.activated", "quote.expired"] as const
/** One type of quote event: `quote.created`, `quote.activated` or `quote.expired`. */
export type QuoteEventType = (typeof QUOTE_EVENT_TYPES)[number]

/** Whether a value (a stored row's, a request's) names a type of quote event. */
export const isQuoteEventType = (value: unknown): value is QuoteEventType =>
  typeof value === "string" && (QUOTE_EVENT_TYPES as ReadonlyArray<string>).includes(value)

/** An event as the outbox stores it and a webhook delivers it. */
export interface QuoteEvent {
  readonly event_id: string
  readonly type: QuoteEventType
  /** Epoch milliseconds. */
  readonly occurred_at: number
  readonly partner_id: string
  readonly quote_id: string
  /** The JSON body a webhook delivers (`QuoteEventBody`), serialised once when the event is made. */
  readonly payload: string
}

/** The body of a webhook: the event, and the quote as retrieving it would answer at that moment. */
export interface QuoteEventBody {
  readonly id: string
  readonly type: QuoteEventType
  /** ISO 8601, UTC, milliseconds. */
  readonly occurred_at: string
  readonly partner_id: string
  readonly quote_id: string
  /** `sandbox` for an event of a sandbox quote (absent: production). */
  readonly environment?: "sandbox"
  /** False in the activation of a sandbox quote, which is never a policy (absent otherwise). */
  readonly policy_issued?: false
  readonly data: RetrievedQuote
}

const SUFFIX: Record<QuoteEventType, string> = {
  "quote.created": "created",
  "quote.activated": "activated",
  "quote.expired": "expired"
}

/** The id of a quote's event of a type: `evt_<quote id>_<created|activated|expired>`. */
const quoteEventId = (quoteId: string, type: QuoteEventType): string => `evt_${quoteId}_${SUFFIX[type]}`

const eventOf = (type: QuoteEventType, stored: StoredQuote, occurredAt: number): QuoteEvent => {
  const sandbox = isSandboxOwner(stored.partner_id)
  const head: Omit<QuoteEventBody, "data"> = {
    id: quoteEventId(stored.quote_id, type),
    type,
    occurred_at: dateTimeOfMillis(occurredAt),
    partner_id: partnerOfOwner(stored.partner_id),
    quote_id: stored.quote_id,
    ...(sandbox ? { environment: "sandbox" as const } : {}),
    ...(sandbox && type === "quote.activated" ? { policy_issued: false as const } : {})
  }
  const payload = JSON.stringify({ ...head, data: retrievedForm(stored) } satisfies QuoteEventBody)
  return {
    event_id: head.id,
    type,
    occurred_at: occurredAt,
    partner_id: stored.partner_id,
    quote_id: stored.quote_id,
    payload
  }
}

/** The event of a quote's creation, when the quote is stored. */
export const quoteCreated = (stored: StoredQuote): QuoteEvent => eventOf("quote.created", stored, stored.created_at)

/** The event of a quote's activation, from the quote as stored after it (`activated_at` set). */
export const quoteActivated = (stored: StoredQuote): QuoteEvent =>
  eventOf("quote.activated", stored, stored.activated_at ?? stored.created_at)

/**
 * The event of a quote that reached its 30 days (a sandbox's quote its 7) unactivated: it occurred at the instant it
 * expired (`QuoteLifecycle.expiresAt`).
 */
export const quoteExpired = (stored: StoredQuote): QuoteEvent => eventOf("quote.expired", stored, expiresAt(stored))
