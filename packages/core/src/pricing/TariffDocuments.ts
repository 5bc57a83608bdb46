/**
 * Tariff documents: the ones shipped with kasko (the reference tariff v1 of
 * both products, JSON under packages/core/tariffs) and how any document is
 * decoded and compiled before the engine may price with it.
 */
import { Result } from "effect"
import { decodeTariff, decodeTariffBriefly, type Tariff } from "./Tariff.js"
import { planOf } from "./PricingPlan.js"

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

/**
 * Decodes and compiles one tariff document read from a file, or says in one
 * line of bounded length its first problem: a command prints it after the
 * file's name.
 */
export const decodeTariffFile = (document: unknown): Result.Result<Tariff, string> =>
  Result.flatMap(decodeTariffBriefly(document), (tariff) => {
    try {
      planOf(tariff)
      return Result.succeed(tariff)
    } catch (error) {
      return Result.fail(`${tariff.product_name} ${tariff.version} cannot be compiled: ${(error as Error).message}`)
    }
  })

// the documents live beside the coverage names read from them, which the answers' schemas need without pricing
export { SHIPPED_TARIFF_DOCUMENTS } from "./ShippedTariffs.js"
