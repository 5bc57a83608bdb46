/**
 * The tariff versions the engine may price with: every product, every version,
 * including versions whose `effective_from` lies ahead.
 */
import { Context, Layer, Result } from "effect"
import { decodeTariff, type Tariff } from "../pricing/Tariff.js"
import { planOf } from "../pricing/PricingPlan.js"
import leasingV1 from "../../tariffs/insurance-car-leasing/v1.json" with { type: "json" }
import standaloneV1 from "../../tariffs/insurance-car-standalone/v1.json" with { type: "json" }

/** How a TariffBook fires rules: compiled (the service's way), or with json-rules-engine (the reference interpreter). */
export type RuleEngine = "compiled" | "json-rules-engine"

export class TariffBook extends Context.Service<
  TariffBook,
  { readonly tariffs: ReadonlyArray<Tariff>; readonly rules: RuleEngine }
>()("@kasko/core/TariffBook") {}

/**
 * Decodes and compiles tariff documents, throwing one readable message naming
 * the document that does not decode or compile — at load time, never while pricing.
 */
export const decodeTariffs = (documents: ReadonlyArray<unknown>): ReadonlyArray<Tariff> =>
  documents.map((document, index) => {
    const tariff = Result.getOrThrowWith(
      decodeTariff(document),
      (message) => new Error(`tariff document ${index} is invalid:\n${message}`)
    )
    try {
      planOf(tariff)
    } catch (error) {
      throw new Error(
        `tariff document ${index} (${tariff.product_name} ${tariff.version}) cannot be compiled: ${(error as Error).message}`
      )
    }
    return tariff
  })

/** A TariffBook of the given tariff documents (an actuary's, or tests'); rules compiled unless asked otherwise. */
export const layer = (documents: ReadonlyArray<unknown>, rules: RuleEngine = "compiled"): Layer.Layer<TariffBook> =>
  Layer.sync(TariffBook, () => ({ tariffs: decodeTariffs(documents), rules }))

/** The tariff documents shipped with kasko: the reference tariff v1 of both products. */
export const SHIPPED_TARIFF_DOCUMENTS: ReadonlyArray<unknown> = [leasingV1, standaloneV1]

/** The TariffBook of the shipped reference tariff. */
export const shipped: Layer.Layer<TariffBook> = layer(SHIPPED_TARIFF_DOCUMENTS)
