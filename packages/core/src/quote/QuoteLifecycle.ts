/**
 * The quote state machine (spec §3, DESIGN §2): await_activation → activated;
 * in either state a quote exists for the caller while now < created_at + 30 days.
 */
import { dateTimeOfMillis } from "../input/CalendarDate.js"
import type { ActivatedQuote, Quote } from "./Quote.js"
import type { PurgeCutoffs, StoredQuote } from "../ports/QuoteStore.js"

const QUOTE_VALIDITY_DAYS = 30
export const QUOTE_VALIDITY_MILLIS = QUOTE_VALIDITY_DAYS * 24 * 60 * 60 * 1000

export type QuoteState = "await_activation" | "activated"

/**
 * What a purge at `now` may delete: every quote that has expired, and activated
 * ones only once they have also been kept `activatedRetentionMillis` past expiry.
 */
export const purgeCutoffs = (now: number, activatedRetentionMillis: number): PurgeCutoffs => ({
  awaitingCreatedAtOrBefore: now - QUOTE_VALIDITY_MILLIS,
  activatedCreatedAtOrBefore: now - QUOTE_VALIDITY_MILLIS - activatedRetentionMillis
})

/** The instant a quote stops existing for the caller. */
export const expiresAt = (quote: Pick<StoredQuote, "created_at">): number => quote.created_at + QUOTE_VALIDITY_MILLIS

/** True from the instant 30 × 24 h after creation, whatever the state. */
export const isExpired = (quote: Pick<StoredQuote, "created_at">, now: number): boolean => now >= expiresAt(quote)

/** What retrieving a quote answers: the §2.9 form while awaiting activation, the §2.10 form after. */
export type RetrievedQuote =
  | { readonly state: "await_activation"; readonly quote: Quote }
  | { readonly state: "activated"; readonly quote: ActivatedQuote }

export const retrievedForm = (stored: StoredQuote): RetrievedQuote =>
  stored.activated_at === null
    ? { state: "await_activation", quote: stored.quote }
    : {
        state: "activated",
        quote: {
          ...stored.quote,
          polices: stored.quote.policies,
          quote_number: stored.quote_number,
          created_at: dateTimeOfMillis(stored.created_at),
          activated_at: dateTimeOfMillis(stored.activated_at)
        }
      }
