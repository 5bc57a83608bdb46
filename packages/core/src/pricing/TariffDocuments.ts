/**
 * Tariff documents: the ones shipped with kasko (the reference tariff v1 of
 * both products, JSON under packages/core/tariffs) and how any document is
 * decoded and compiled before the engine may price with it.
 */
import { Result } from "effect"
import { decodeTariff, decodeTariffBriefly, type Tariff } from "./Tariff.js"
import { planWithProduct } from "./PricingPlan.js"
import { type Catalogue, shipped } from "../product/ProductCatalogue.js"
import { SHIPPED_TARIFF_DOCUMENTS } from "./ShippedTariffs.js"

/**
 * Decodes and compiles tariff documents of a catalogue's products (the shipped ones unless given), each planned over
 * its product's document, throwing one readable message naming the document that does not decode or compile — at
 * load time, never while pricing.
 */
export const decodeTariffs = (
  documents: ReadonlyArray<unknown>,
  catalogue: Catalogue = shipped
): ReadonlyArray<Tariff> =>
  documents.map((document, index) => {
    const tariff = Result.getOrThrowWith(
      decodeTariff(document, catalogue),
      (message) => new Error(`tariff document ${index} is invalid:\n${message}`)
    )
    const product = catalogue.document(tariff.product_name)!
    try {
      planWithProduct(tariff, product)
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
export const decodeTariffFile = (document: unknown, catalogue: Catalogue = shipped): Result.Result<Tariff, string> =>
  Result.flatMap(decodeTariffBriefly(document, catalogue), (tariff) => {
    try {
      planWithProduct(tariff, catalogue.document(tariff.product_name)!)
      return Result.succeed(tariff)
    } catch (error) {
      return Result.fail(`${tariff.product_name} ${tariff.version} cannot be compiled: ${(error as Error).message}`)
    }
  })

/** The product a tariff document names, read as it stands (it is decoded with the others). */
const productNameOf = (document: unknown): unknown =>
  typeof document === "object" && document !== null ? (document as { product_name?: unknown }).product_name : undefined

/**
 * The tariff documents of a catalogue's products: `documents`, those of the products it added or replaced, after
 * the shipped tariffs of the shipped products it keeps as they are.
 */
export const catalogueTariffDocuments = (
  catalogue: Catalogue,
  documents: ReadonlyArray<unknown>
): ReadonlyArray<unknown> => [
  ...SHIPPED_TARIFF_DOCUMENTS.filter((document) => {
    const name = productNameOf(document)
    return typeof name === "string" && catalogue.document(name) === shipped.document(name)
  }),
  ...documents
]

// the documents live beside the coverage names read from them, which the answers' schemas need without pricing
export { SHIPPED_TARIFF_DOCUMENTS } from "./ShippedTariffs.js"
