/**
 * The event outbox port: the quote events a QuoteStore wrote in the same
 * transaction as the changes they report (a committed change always has its
 * event, a failed one never does). Each store adapter provides it over the
 * same database as its QuoteStore; the webhook dispatcher reads from it.
 */
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "../Errors.js"
import type { QuoteEvent } from "../events/QuoteEvent.js"

export class EventOutbox extends Context.Tag("@kasko/core/EventOutbox")<
  EventOutbox,
  {
    /** A quote's events, in the order they were written. */
    readonly eventsOfQuote: (quoteId: string) => Effect.Effect<ReadonlyArray<QuoteEvent>, StorageUnavailable>
  }
>() {}
