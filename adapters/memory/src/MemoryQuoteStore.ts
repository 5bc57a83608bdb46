/**
 * QuoteStore and its EventOutbox in memory: for tests, embedding and demos.
 * Nothing survives the process. Stored quotes are deep-copied in and out, so
 * callers can never mutate what is stored. A change and its event are written
 * in one synchronous step, as a database writes them in one transaction.
 * @module
 */
import { EventOutbox, QuoteEvents, QuoteStore, WebhookSubscriptions } from "@kasko/core"
import { QuoteLifecycle } from "@kasko/core/storage"
import { Sandbox } from "@kasko/core/administration"
import { makeEventOutbox } from "./MemoryEventOutbox.js"
import { Context, Effect, Layer, Option } from "effect"

type StoredQuote = QuoteStore.StoredQuote

const keyOf = (partnerId: string, quoteId: string) => `${partnerId}\u0000${quoteId}`

/** A fresh, empty in-memory QuoteStore and the outbox of its events. */
export const makeStores = (): {
  readonly quotes: QuoteStore.QuoteStore["Service"]
  readonly outbox: EventOutbox.EventOutbox["Service"]
  readonly subscriptions: WebhookSubscriptions.WebhookSubscriptions["Service"]
} => {
  const eventLog = makeEventOutbox()
  const quotes = new Map<string, StoredQuote>()
  const byId = new Set<string>()
  const idempotencyKeys = new Map<
    string,
    { readonly fingerprint: string; readonly quote_id: string; readonly created_at: number }
  >()
  const storeQuote = (quote: StoredQuote) => {
    if (byId.has(quote.quote_id)) throw new Error(`quote ${quote.quote_id} is already stored`)
    byId.add(quote.quote_id)
    quotes.set(keyOf(quote.partner_id, quote.quote_id), structuredClone(quote))
    eventLog.append(QuoteEvents.quoteCreated(quote))
  }
  const quoteStore: QuoteStore.QuoteStore["Service"] = {
    insert: (quote) => Effect.sync(() => storeQuote(quote)),
    insertIdempotent: (quote, use) =>
      Effect.sync(() => {
        const earlier = idempotencyKeys.get(keyOf(quote.partner_id, use.key))
        const earlierQuote = earlier === undefined ? undefined : quotes.get(keyOf(quote.partner_id, earlier.quote_id))
        if (earlier !== undefined && earlierQuote !== undefined && earlier.created_at > use.unused_before) {
          return Option.some({ quote: structuredClone(earlierQuote), fingerprint: earlier.fingerprint })
        }
        storeQuote(quote)
        idempotencyKeys.set(keyOf(quote.partner_id, use.key), {
          fingerprint: use.fingerprint,
          quote_id: quote.quote_id,
          created_at: quote.created_at
        })
        return Option.none()
      }),
    find: (partnerId, quoteId) =>
      Effect.sync(() => Option.fromNullishOr(quotes.get(keyOf(partnerId, quoteId))).pipe(Option.map(structuredClone))),
    findWithoutWorksheet: (partnerId, quoteId) =>
      Effect.sync(() =>
        Option.fromNullishOr(quotes.get(keyOf(partnerId, quoteId))).pipe(
          Option.map(({ worksheet: _worksheet, ...withoutWorksheet }) => structuredClone(withoutWorksheet))
        )
      ),
    markActivated: (partnerId, quoteId, activatedAt) =>
      Effect.sync(() => {
        const stored = quotes.get(keyOf(partnerId, quoteId))
        if (stored === undefined) return Option.none()
        if (stored.activated_at === null) {
          const activated = QuoteLifecycle.activated(stored, activatedAt)
          quotes.set(keyOf(partnerId, quoteId), activated)
          eventLog.append(QuoteEvents.quoteActivated(activated))
        }
        return Option.some(structuredClone(quotes.get(keyOf(partnerId, quoteId))!))
      }),
    purge: ({ awaitingCreatedAtOrBefore, activatedCreatedAtOrBefore, sandboxCreatedAtOrBefore }) =>
      Effect.sync(() => {
        let deleted = 0
        for (const [key, quote] of quotes) {
          const cutoff = quote.activated_at === null ? awaitingCreatedAtOrBefore : activatedCreatedAtOrBefore
          const sandboxPurged =
            sandboxCreatedAtOrBefore !== undefined &&
            Sandbox.isSandboxOwner(quote.partner_id) &&
            quote.created_at <= sandboxCreatedAtOrBefore
          if (quote.created_at > cutoff && !sandboxPurged) continue
          // an unactivated quote it deletes has expired, a sandbox's at 7 days as a production one's at 30
          if (quote.activated_at === null) eventLog.append(QuoteEvents.quoteExpired(quote))
          quotes.delete(key)
          byId.delete(quote.quote_id)
          for (const [useKey, use] of idempotencyKeys)
            if (use.quote_id === quote.quote_id) idempotencyKeys.delete(useKey)
          deleted++
        }
        eventLog.prune(activatedCreatedAtOrBefore)
        return deleted
      }),
    listPortfolio: ({ after, limit }) =>
      Effect.sync(() =>
        [...quotes.values()]
          .filter((quote) => !Sandbox.isSandboxOwner(quote.partner_id))
          .filter((quote) => after === undefined || quote.quote_id > after)
          .sort((a, b) => (a.quote_id < b.quote_id ? -1 : 1))
          .slice(0, limit)
          .map((quote) => structuredClone(QuoteStore.portfolioQuoteOf(quote)))
      ),
    // memory can always take a write
    checkWritable: Effect.void
  }
  return { quotes: quoteStore, outbox: eventLog.outbox, subscriptions: eventLog.subscriptions }
}

/** A fresh, empty in-memory QuoteStore (its events written to an outbox nobody reads). */
export const makeQuoteStore = (): QuoteStore.QuoteStore["Service"] => makeStores().quotes

/**
 * The in-memory QuoteStore, its EventOutbox and webhook subscriptions as a Layer; each build is a new, empty
 * store. Effect 4 builds a layer once per run, also when provided again inside it: for a separate store
 * there, provide `Layer.fresh(layer)`.
 */
export const layer: Layer.Layer<
  QuoteStore.QuoteStore | EventOutbox.EventOutbox | WebhookSubscriptions.WebhookSubscriptions
> = Layer.effectContext(
  Effect.sync(() => {
    const { quotes, outbox, subscriptions } = makeStores()
    return Context.make(QuoteStore.QuoteStore, quotes).pipe(
      Context.add(EventOutbox.EventOutbox, outbox),
      Context.add(WebhookSubscriptions.WebhookSubscriptions, subscriptions)
    )
  })
)
