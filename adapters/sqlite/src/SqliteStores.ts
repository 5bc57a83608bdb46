/**
 * The SQLite stores and the event outbox on one connection: what the service and the `kasko` command use.
 * @module
 */
import { EventOutbox, PartnerStore, QuoteStore, type StorageUnavailable, WebhookSubscriptions } from "@kasko/core"
import { Context, Effect, Layer } from "effect"
import { scopedConnection, type SqliteOptions } from "./SqliteConnection.js"
import { makePartnerStore } from "./SqlitePartnerStore.js"
import { makeEventOutbox } from "./SqliteEventOutbox.js"
import { makeQuoteStore } from "./SqliteQuoteStore.js"
import { makeWebhookSubscriptions } from "./SqliteWebhookSubscriptions.js"
import type { SqliteOpenRefused } from "./SqliteErrors.js"

/**
 * Every store on one SQLite file and one connection — quotes, partners, the event outbox, webhook subscriptions —
 * opened (and migrated) when the layer is built and closed with its scope: what the service and `kasko` use.
 */
export const layer = (
  options: SqliteOptions
): Layer.Layer<
  | QuoteStore.QuoteStore
  | PartnerStore.PartnerStore
  | EventOutbox.EventOutbox
  | WebhookSubscriptions.WebhookSubscriptions,
  StorageUnavailable | SqliteOpenRefused
> =>
  Layer.effectContext(
    Effect.map(scopedConnection(options), (database) =>
      Context.make(QuoteStore.QuoteStore, makeQuoteStore(database, options.onGroupCommit)).pipe(
        Context.add(PartnerStore.PartnerStore, makePartnerStore(database)),
        Context.add(EventOutbox.EventOutbox, makeEventOutbox(database)),
        Context.add(WebhookSubscriptions.WebhookSubscriptions, makeWebhookSubscriptions(database))
      )
    )
  )
