/**
 * The quote store pokes the instance's webhook dispatcher after each write
 * that may have written events (a quote stored, activated, purged), so that
 * a delivery starts within the dispatcher's busy interval of the commit
 * rather than at its next poll.
 */
import { type EventOutbox, type PartnerStore, QuoteStore, type WebhookSubscriptions } from "@kasko/core"
import type { Wakeups } from "@kasko/webhooks"
import { Context, Effect, Layer } from "effect"

const poking = (store: QuoteStore.QuoteStore["Service"], poke: () => void): QuoteStore.QuoteStore["Service"] => {
  const thenPoke = <A, E>(write: Effect.Effect<A, E>) => Effect.tap(write, () => Effect.sync(poke))
  return {
    ...store,
    insert: (quote) => thenPoke(store.insert(quote)),
    insertIdempotent: (quote, key) => thenPoke(store.insertIdempotent(quote, key)),
    markActivated: (partnerId, quoteId, activatedAt) => thenPoke(store.markActivated(partnerId, quoteId, activatedAt)),
    purge: (cutoffs) => thenPoke(store.purge(cutoffs))
  }
}

type Stores =
  | QuoteStore.QuoteStore
  | PartnerStore.PartnerStore
  | EventOutbox.EventOutbox
  | WebhookSubscriptions.WebhookSubscriptions

/** `layer`'s stores, its quote store poking `wakeups` after each write that may have written events. */
export const wakingOnEvents = <E>(layer: Layer.Layer<Stores, E>, wakeups: Wakeups): Layer.Layer<Stores, E> =>
  Layer.effectContext(
    Effect.map(Effect.context<Stores>(), (context) =>
      Context.add(context, QuoteStore.QuoteStore, poking(Context.get(context, QuoteStore.QuoteStore), wakeups.poke))
    )
  ).pipe(Layer.provide(layer))
