/**
 * The stores as the service uses them, instrumented: every call runs in a
 * span `kasko.store.<store>.<operation>` (timed into the metrics by the
 * TimingTracer, exported with the traces), and with metrics on the quote
 * store's writes count quotes created and activated, each in its owner's
 * environment (production, or a partner's sandbox).
 */
import { type EventOutbox, PartnerStore, QuoteStore, type WebhookSubscriptions } from "@kasko/core"
import { Sandbox } from "@kasko/core/administration"
import { Context, Effect, Layer, Option } from "effect"
import type { ServiceConfig } from "./ServiceConfig.js"
import type { ServiceMetrics } from "./ServiceMetrics.js"
import { storesLayer } from "./Stores.js"
import { STORE_SPAN_PREFIX } from "./TimingTracer.js"

type StoreServices =
  | QuoteStore.QuoteStore
  | PartnerStore.PartnerStore
  | EventOutbox.EventOutbox
  | WebhookSubscriptions.WebhookSubscriptions

/** Store spans skip Effect's stack capture: one Error per store call, on every request. */
const NO_STACK = { captureStackTrace: false } as const

/** Each of a store's operations (functions answering an Effect, or Effects) run in a span of its own. */
const inSpans = <S extends object>(store: S, storeName: string): S =>
  Object.fromEntries(
    Object.entries(store).map(([operation, member]) => {
      const span = `${STORE_SPAN_PREFIX}${storeName}.${operation}`
      if (Effect.isEffect(member)) return [operation, Effect.withSpan(member, span, NO_STACK)]
      if (typeof member === "function")
        return [
          operation,
          (...args: Array<unknown>) =>
            Effect.withSpan((member as (...a: Array<unknown>) => Effect.Effect<unknown>)(...args), span, NO_STACK)
        ]
      return [operation, member]
    })
  ) as S

/** The `environment` label of a quote kept under `ownerId`: a partner's, or a partner's sandbox's. */
const environmentOf = (ownerId: string) => ({
  environment: Sandbox.isSandboxOwner(ownerId) ? "sandbox" : "production"
})

const countingQuotes = (
  store: QuoteStore.QuoteStore["Service"],
  metrics: ServiceMetrics | undefined
): QuoteStore.QuoteStore["Service"] =>
  metrics === undefined
    ? store
    : {
        ...store,
        insert: (quote) =>
          Effect.tap(store.insert(quote), () =>
            Effect.sync(() => metrics.quotesCreated.inc(environmentOf(quote.partner_id)))
          ),
        // none: this request's quote was stored; some: an earlier one under the same key was answered instead
        insertIdempotent: (quote, key) =>
          Effect.tap(store.insertIdempotent(quote, key), (earlier) =>
            Effect.sync(() => {
              if (Option.isNone(earlier)) metrics.quotesCreated.inc(environmentOf(quote.partner_id))
            })
          ),
        // the purge in its two halves, to count production's expiries: unactivated quotes past their 30 days (each
        // with its quote.expired event), then activated ones past their retention and sandbox quotes past their 7
        // days, in any state (no cutoff matches a creation time of -1) — a sandbox's expiries have their events,
        // and are not counted with production's
        purge: ({ awaitingCreatedAtOrBefore, activatedCreatedAtOrBefore, sandboxCreatedAtOrBefore }) =>
          Effect.gen(function* () {
            const expired = yield* store.purge({ awaitingCreatedAtOrBefore, activatedCreatedAtOrBefore: -1 })
            metrics.quotesExpired.inc(expired)
            const kept = sandboxCreatedAtOrBefore === undefined ? {} : { sandboxCreatedAtOrBefore }
            return (
              expired + (yield* store.purge({ awaitingCreatedAtOrBefore: -1, activatedCreatedAtOrBefore, ...kept }))
            )
          }),
        // the first activation keeps its time: a quote whose activation time is this call's was activated by it
        markActivated: (partnerId, quoteId, activatedAt) =>
          Effect.tap(store.markActivated(partnerId, quoteId, activatedAt), (stored) =>
            Effect.sync(() => {
              if (Option.isSome(stored) && stored.value.activated_at === activatedAt)
                metrics.quotesActivated.inc(environmentOf(partnerId))
            })
          )
      }

/** The stores `layer` provides, the quote and partner stores instrumented. */
export const instrumentedStores = <E>(
  layer: Layer.Layer<StoreServices, E>,
  metrics: ServiceMetrics | undefined
): Layer.Layer<StoreServices, E> =>
  Layer.effectContext(
    Effect.map(Effect.context<StoreServices>(), (context) =>
      context.pipe(
        Context.add(
          QuoteStore.QuoteStore,
          inSpans(countingQuotes(Context.get(context, QuoteStore.QuoteStore), metrics), "quotes")
        ),
        Context.add(PartnerStore.PartnerStore, inSpans(Context.get(context, PartnerStore.PartnerStore), "partners"))
      )
    )
  ).pipe(Layer.provide(layer))

/**
 * The stores the configuration names, as the service runs them: with metrics
 * on, counted and timed, the SQLite group commits and the PostgreSQL pool
 * watched; traced, each call in a span; with neither, as they are, so that
 * store calls cost nothing extra.
 */
export const serviceStores = (config: ServiceConfig, metrics: ServiceMetrics | undefined, traced: boolean) =>
  metrics === undefined && !traced
    ? storesLayer(config)
    : instrumentedStores(
        storesLayer(
          config,
          metrics === undefined
            ? {}
            : {
                onGroupCommit: (quotes) => metrics.groupCommitQuotes.observe(quotes),
                watchPool: (state) => metrics.watchPool(state)
              }
        ),
        metrics
      )
