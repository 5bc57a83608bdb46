/**
 * The quote storage port. Adapters (memory, SQLite, PostgreSQL) implement it
 * with a Layer; the storage contract suite holds every one to the same rules.
 * @module
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

/** A stored quote without the worksheet it was priced with: what retrieval and activation answer from. */
export type StoredQuoteWithoutWorksheet = Omit<StoredQuote, "worksheet">

/**
 * The QuoteStore port: durable quotes — insert (idempotently too), find, activate (compare-and-set), purge — and
 * the portfolio an impact test re-prices. The memory, SQLite and PostgreSQL adapters provide it.
 */
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
     * The partner's quote as `find` answers it, without its worksheet: retrieval, the hottest read, needs
     * none, and the worksheet is most of a stored quote's bytes (a SQL store does not read it).
     */
    readonly findWithoutWorksheet: (
      partnerId: string,
      quoteId: string
    ) => Effect.Effect<Option.Option<StoredQuoteWithoutWorksheet>, StorageUnavailable>
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
     * Deletes quotes awaiting activation created at or before `awaitingCreatedAtOrBefore`,
     * activated quotes created at or before `activatedCreatedAtOrBefore`, and a sandbox's quotes, in either
     * state, created at or before `sandboxCreatedAtOrBefore`; writes the quote.expired event of every quote
     * awaiting activation it deletes (a sandbox's too) with the deletion; answers how many it deleted.
     */
    readonly purge: (cutoffs: PurgeCutoffs) => Effect.Effect<number, StorageUnavailable>
    /**
     * The pricing inputs of stored quotes, awaiting activation and activated, in `quote_id` order
     * from after `page.after` (none: from the first), at most `page.limit` of them: what an impact
     * test of a new tariff version re-prices. Never their parties: a store reads the product
     * selection and the worksheet's facts and annual total, not the rest of the quote. Never a
     * sandbox's quotes (`Sandbox.isSandboxOwner`): they are a partner's tests, not its business.
     */
    readonly listPortfolio: (page: PortfolioPage) => Effect.Effect<ReadonlyArray<PortfolioQuote>, StorageUnavailable>
    /**
     * Proves the store can commit now, with a cheap write no reader ever sees
     * (readiness: a full disk fails it while reads still work).
     */
    readonly checkWritable: Effect.Effect<void, StorageUnavailable>
  }
>()("@kasko/core/QuoteStore") {}

/** Where a page of `listPortfolio` starts, and how long it is. */
export interface PortfolioPage {
  /** The last quote_id of the page before; undefined for the first page. */
  readonly after: string | undefined
  readonly limit: number
}

/** A stored quote as a portfolio case: what prices it, and what it was priced at. */
export interface PortfolioQuote {
  readonly quote_id: string
  readonly state: "await_activation" | "activated"
  /** Epoch milliseconds. */
  readonly created_at: number
  readonly tariff_version: string
  /** The product (not the variant's name a quote answers with). */
  readonly product_name: string
  readonly feature: string
  /** The parameters as the quote echoes them: strings, defaults filled in. */
  readonly parameters: Readonly<Record<string, string>>
  /** The annual premium it was priced at: its worksheet's annual total, øre. */
  readonly annual_total_ore: number
}

/** A stored quote as a portfolio case, from its stored form (the memory store's way; SQL stores select the same). */
export const portfolioQuoteOf = (quote: StoredQuote): PortfolioQuote => ({
  quote_id: quote.quote_id,
  state: quote.activated_at === null ? "await_activation" : "activated",
  created_at: quote.created_at,
  tariff_version: quote.tariff_version,
  product_name: quote.worksheet.facts.product_name,
  feature: quote.quote.product.features[0]?.name ?? "standard",
  parameters: quote.quote.product.parameters,
  annual_total_ore: quote.worksheet.annual_total_ore
})

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
  /** Sandbox quotes (`Sandbox.isSandboxOwner`), activated or not, created at or before it are deleted too. */
  readonly sandboxCreatedAtOrBefore?: number
}
