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
  return {
    insert: (quote) =>
      Effect.sync(() => {
        if (byId.has(quote.quote_id)) throw new Error(`quote ${quote.quote_id} is already stored`)
        byId.add(quote.quote_id)
        quotes.set(keyOf(quote.partner_id, quote.quote_id), structuredClone(quote))
      }),
    find: (partnerId, quoteId) =>
      Effect.sync(() => Option.fromNullable(quotes.get(keyOf(partnerId, quoteId))).pipe(Option.map(structuredClone))),
    markActivated: (partnerId, quoteId, activatedAt) =>
      Effect.sync(() => {
        const stored = quotes.get(keyOf(partnerId, quoteId))
        if (stored === undefined) return Option.none()
        if (stored.activated_at === null) quotes.set(keyOf(partnerId, quoteId), { ...stored, activated_at: activatedAt })
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
          deleted++
        }
        return deleted
      })
  }
}

/** The in-memory QuoteStore as a Layer; each build is a new, empty store. */
export const layer: Layer.Layer<QuoteStore.QuoteStore> = Layer.sync(QuoteStore.QuoteStore, makeQuoteStore)
