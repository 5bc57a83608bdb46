/**
 * Readiness: whether the service can do its work now — the quote store must
 * take a write, not merely answer a read (a full disk answers reads). The
 * probe writes at most once a second however often it is asked: a flood of
 * readiness checks never becomes a flood of commits.
 * @module
 */
import { Context, Duration, Effect, Layer } from "effect"
import type { StorageUnavailable } from "../Errors.js"
import { QuoteStore } from "./QuoteStore.js"

/** How long a probe's outcome answers for readiness. */
const PROBE_INTERVAL = Duration.seconds(1)

/** The Readiness port: whether the store can commit now, for `GET /ready`. `layer` provides it over the QuoteStore. */
export class Readiness extends Context.Service<
  Readiness,
  {
    /** Succeeds while the quote store can commit; the outcome of the last probe within PROBE_INTERVAL. */
    readonly check: Effect.Effect<void, StorageUnavailable>
  }
>()("@kasko/core/Readiness") {}

/** Readiness from the quote store's write probe, remembered for PROBE_INTERVAL. */
export const layer: Layer.Layer<Readiness, never, QuoteStore> = Layer.effect(
  Readiness,
  Effect.flatMap(QuoteStore, (store) =>
    Effect.map(Effect.cachedWithTTL(store.checkWritable, PROBE_INTERVAL), (check) => ({ check }))
  )
)
