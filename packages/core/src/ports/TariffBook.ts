/**
 * The tariff versions the engine may price with: every product, every version,
 * including versions whose `effective_from` lies ahead.
 */
import { Context, Layer } from "effect"
import type { Tariff } from "../pricing/Tariff.js"
import { decodeTariffs, SHIPPED_TARIFF_DOCUMENTS } from "../pricing/TariffDocuments.js"

/** How a TariffBook fires rules: compiled (the service's way), or with json-rules-engine (the reference interpreter). */
type RuleEngine = "compiled" | "json-rules-engine"

export class TariffBook extends Context.Service<
  TariffBook,
  { readonly tariffs: ReadonlyArray<Tariff>; readonly rules: RuleEngine }
>()("@kasko/core/TariffBook") {}

/** A TariffBook of the given tariff documents (an actuary's, or tests'); rules compiled unless asked otherwise. */
export const layer = (documents: ReadonlyArray<unknown>, rules: RuleEngine = "compiled"): Layer.Layer<TariffBook> =>
  Layer.sync(TariffBook, () => ({ tariffs: decodeTariffs(documents), rules }))

/** The TariffBook of the shipped reference tariff. */
export const shipped: Layer.Layer<TariffBook> = layer(SHIPPED_TARIFF_DOCUMENTS)
