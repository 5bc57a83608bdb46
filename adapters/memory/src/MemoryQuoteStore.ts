/**
 * QuoteStore in memory: for tests, embedding and demos. Nothing survives the
 * process. Stored quotes are deep-copied in and out, so callers can never
 * mutate what is stored.
 */
import { QuoteStore } from "@kasko/core"
import { Effect, Layer, Option } from "effect"

type StoredQuote = QuoteStore.StoredQuote

const keyOf = (partnerId: string, quoteId: string) => `${partnerId}\u0000${quoteId}`

/** A fresh, empty in-memory QuoteStore. */
export const makeQuoteStore = (): QuoteStore.QuoteStore["Type"] => {
  const quotes = new Map<string, StoredQuote>()
  const byId = new Set<string>()
  const idempotencyKeys = new Map<
    string,
    { readonly fingerprint: string; readonly quote_id: string; readonly created_at: number }
  >()
  const store = (quote: StoredQuote) => {
    if (byId.has(quote.quote_id)) throw new Error(`quote ${quote.quote_id} is already stored`)
    byId.add(quote.quote_id)
    quotes.set(keyOf(quote.partner_id, quote.quote_id), structuredClone(quote))
  }
  return {
    insert: (quote) => Effect.sync(() => store(quote)),
    insertIdempotent: (quote, use) =>
      Effect.sync(() => {
        const earlier = idempotencyKeys.get(keyOf(quote.partner_id, use.key))
        const earlierQuote = earlier === undefined ? undefined : quotes.get(keyOf(quote.partner_id, earlier.quote_id))
        if (earlier !== undefined && earlierQuote !== undefined && earlier.created_at > use.unused_before) {
          return Option.some({ quote: structuredClone(earlierQuote), fingerprint: earlier.fingerprint })
        }
        store(quote)
        idempotencyKeys.set(keyOf(quote.partner_id, use.key), {
          fingerprint: use.fingerprint,
          quote_id: quote.quote_id,
          created_at: quote.created_at
        })
        return Option.none()
      }),
    find: (partnerId, quoteId) =>
      Effect.sync(() => Option.fromNullable(quotes.get(keyOf(partnerId, quoteId))).pipe(Option.map(structuredClone))),
    markActivated: (partnerId, quoteId, activatedAt) =>
      Effect.sync(() => {
        const stored = quotes.get(keyOf(partnerId, quoteId))
        if (stored === undefined) return Option.none()
        if (stored.activated_at === null)
          quotes.set(keyOf(partnerId, quoteId), { ...stored, activated_at: activatedAt })
        return Option.some(structuredClone(quotes.get(keyOf(partnerId, quoteId))!))
      }),
    purge: ({ awaitingCreatedAtOrBefore, activatedCreatedAtOrBefore }) =>
      Effect.sync(() => {
        let deleted = 0
        for (const [key, quote] of quotes) {
          const cutoff = quote.activated_at === null ? awaitingCreatedAtOrBefore : activatedCreatedAtOrBefore
          if (quote.created_at > cutoff) continue
          quotes.delete(key)
          byId.delete(quote.quote_id)
          for (const [useKey, use] of idempotencyKeys)
            if (use.quote_id === quote.quote_id) idempotencyKeys.delete(useKey)
          deleted++
        }
        return deleted
      }),
    // memory can always take a write
    checkWritable: Effect.void
  }
}

/** The in-memory QuoteStore as a Layer; each build is a new, empty store. */
export const layer: Layer.Layer<QuoteStore.QuoteStore> = Layer.sync(QuoteStore.QuoteStore, makeQuoteStore)
