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

// The JSON text a value was stored as, for the values a SQL store read or wrote: answering it as it is spares
// parsing it and encoding it again (~10 µs of a 1.9 KB quote on Node 24, a tenth of a retrieval's CPU)
const jsonTexts = new WeakMap<object, string>()

/** Records that `value` is exactly `text` as JSON (its `JSON.stringify`); answers `value`. */
export const keepJsonText = <A extends object>(value: A, text: string): A => {
  jsonTexts.set(value, text)
  return value
}

/** `JSON.stringify(value)` as a store kept it, when one did; undefined otherwise. */
export const jsonTextOf = (value: object): string | undefined => jsonTexts.get(value)

/** A stored quote's `quote` as JSON text: the text a store kept, or encoded now and kept for the next asker. */
export const quoteText = (stored: StoredQuote): string => {
  const kept = quoteTexts.get(stored) ?? jsonTexts.get(stored.quote)
  if (kept !== undefined) return kept
  const text = JSON.stringify(stored.quote)
  jsonTexts.set(stored.quote, text)
  return text
}

// for stored quotes read from a row, and their retrieved forms: the JSON text of their `quote` (not of
// themselves), kept before anything parsed it
const quoteTexts = new WeakMap<{ readonly quote: object }, string>()

/** Records that `holder.quote`, parsed or not yet, is exactly `text` as JSON; answers `holder`. */
export const keepQuoteText = <A extends { readonly quote: object }>(holder: A, text: string): A => {
  quoteTexts.set(holder, text)
  return holder
}

/** `JSON.stringify(holder.quote)` as a store kept it, when one did (a retrieval's §2.9 form is the stored quote). */
export const quoteTextOf = (holder: { readonly quote: object }): string | undefined => quoteTexts.get(holder)

export const retrievedForm = (stored: StoredQuote): RetrievedQuote => {
  if (stored.activated_at === null) {
    // the §2.9 form is the stored quote itself: a store that kept its JSON text answers that text, unparsed
    const text = quoteTexts.get(stored)
    if (text === undefined) return { state: "await_activation", quote: stored.quote }
    return keepQuoteText<RetrievedQuote>(
      {
        state: "await_activation",
        get quote() {
          return stored.quote
        }
      },
      text
    )
  }
  return {
    state: "activated",
    quote: {
      ...stored.quote,
      polices: stored.quote.policies,
      quote_number: stored.quote_number,
      created_at: dateTimeOfMillis(stored.created_at),
      activated_at: dateTimeOfMillis(stored.activated_at)
    }
  }
}
