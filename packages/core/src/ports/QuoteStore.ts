/**
 * The quote storage port. Adapters (memory, SQLite, PostgreSQL) implement it
 * with a Layer; the storage contract suite holds every one to the same rules.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { StorageUnavailable } from "../Errors.js"
import { QuoteContent } from "../quote/Quote.js"
import { RatingWorksheet } from "../pricing/RatingWorksheet.js"

/** A quote as stored: its §2.9 content, its worksheet, and its lifecycle facts (which make its answers' state). */
export const StoredQuote = Schema.Struct({
  quote_id: Schema.String,
  partner_id: Schema.String,
  quote_number: Schema.String,
  /** Epoch milliseconds. */
  created_at: Schema.Int,
  /** Epoch milliseconds; null while awaiting activation. */
  activated_at: Schema.NullOr(Schema.Int),
  tariff_version: Schema.String,
  quote: QuoteContent,
  worksheet: RatingWorksheet
})
export type StoredQuote = typeof StoredQuote.Type

export class QuoteStore extends Context.Service<
  QuoteStore,
  {
    /** Stores a new quote; once this succeeds the quote is durable. */
    readonly insert: (quote: StoredQuote) => Effect.Effect<void, StorageUnavailable>
    /**
     * Stores a new quote under the partner's idempotency key — unless the key
     * already names a quote created after `key.unused_before`: then nothing is
     * stored and that quote is answered with the fingerprint it was made from.
     * Atomic: of concurrent inserts under one key, exactly one stores.
     */
    readonly insertIdempotent: (
      quote: StoredQuote,
      key: IdempotencyKeyUse
    ) => Effect.Effect<Option.Option<{ readonly quote: StoredQuote; readonly fingerprint: string }>, StorageUnavailable>
    /** The partner's quote with that id; another partner's quote is not found. */
    readonly find: (partnerId: string, quoteId: string) => Effect.Effect<Option.Option<StoredQuote>, StorageUnavailable>
    /**
     * Marks the partner's quote activated at `activatedAt` unless it already is
     * (compare-and-set: the first activation's time is kept), and returns the
     * quote as stored afterwards; none when there is no such quote.
     */
    readonly markActivated: (
      partnerId: string,
      quoteId: string,
      activatedAt: number
    ) => Effect.Effect<Option.Option<StoredQuote>, StorageUnavailable>
    /**
     * Deletes quotes awaiting activation created at or before `awaitingCreatedAtOrBefore`
     * and activated quotes created at or before `activatedCreatedAtOrBefore`;
     * answers how many it deleted.
     */
    readonly purge: (cutoffs: PurgeCutoffs) => Effect.Effect<number, StorageUnavailable>
    /**
     * Proves the store can commit now, with a cheap write no reader ever sees
     * (readiness: a full disk fails it while reads still work).
     */
    readonly checkWritable: Effect.Effect<void, StorageUnavailable>
  }
>()("@kasko/core/QuoteStore") {}

/** An Idempotency-Key as a quote creation uses it. */
export interface IdempotencyKeyUse {
  readonly key: string
  /** What identifies the request: the same key with another fingerprint is a different request. */
  readonly fingerprint: string
  /** Uses of the key created at or before this instant (epoch ms) are forgotten. */
  readonly unused_before: number
}

/** Creation instants (epoch ms) at or before which quotes are deleted, per state. */
export interface PurgeCutoffs {
  readonly awaitingCreatedAtOrBefore: number
  readonly activatedCreatedAtOrBefore: number
}
