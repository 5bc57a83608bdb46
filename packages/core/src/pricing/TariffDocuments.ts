/**
 * Tariff documents: the ones shipped with kasko (the reference tariff v1 of
 * both products, JSON under packages/core/tariffs) and how any document is
 * decoded and compiled before the engine may price with it.
 * @module
 */
import { Result } from "effect"
import { inForceTogether } from "../input/CalendarDate.js"
import { decodeTariff, decodeTariffBriefly, type Tariff } from "./Tariff.js"
import { planWithProduct } from "./TariffPlans.js"
import { type Catalogue, shipped, versionForTariff } from "../product/ProductCatalogue.js"
import type { ProductDocument } from "../product/ProductDocument.js"
import { SHIPPED_TARIFF_DOCUMENTS } from "./ShippedTariffs.js"

/**
 * The versions of a tariff's product that it prices with: those in force at some time the tariff is, the tariff's
 * product's versions and `tariffs` (the others of its book) deciding when each gives way to the next.
 */
export const productVersionsPricedBy = (
  tariff: Tariff,
  tariffs: ReadonlyArray<Tariff>,
  catalogue: Catalogue
): ReadonlyArray<ProductDocument> => {
  const tariffDates = tariffs
    .filter((other) => other.product_name === tariff.product_name)
    .map((other) => other.effective_from)
  const versions = catalogue.versionsOf(tariff.product_name)
  const versionDates = versions.map((version) => version.effective_from)
  return versions.filter((version) =>
    inForceTogether(tariff.effective_from, tariffDates, version.effective_from, versionDates)
  )
}

/**
 * Decodes and compiles tariff documents of a catalogue's products (the shipped ones unless given), each planned over
 * every version of its product it prices with, throwing one readable message naming the document that does not
 * decode or compile — at load time, never while pricing.
 */
export const decodeTariffs = (
  documents: ReadonlyArray<unknown>,
  catalogue: Catalogue = shipped
): ReadonlyArray<Tariff> => {
  const tariffs = documents.map((document, index) =>
    Result.getOrThrowWith(
      decodeTariff(document, catalogue),
      (message) => new Error(`tariff document ${index} is invalid:\n${message}`)
    )
  )
  tariffs.forEach((tariff, index) => {
    const first = catalogue.versionsOf(tariff.product_name)[0]
    if (first !== undefined && tariff.effective_from < first.effective_from)
      throw new Error(
        `tariff document ${index} (${tariff.product_name} ${tariff.version}) takes effect on ${tariff.effective_from}, before its product's first version (${first.version}, ${first.effective_from}): it would price the product before it is sold`
      )
    for (const product of productVersionsPricedBy(tariff, tariffs, catalogue))
      try {
        planWithProduct(tariff, product)
      } catch (error) {
        const versions =
          catalogue.versionsOf(tariff.product_name).length > 1 ? ` with the product's ${product.version}` : ""
        throw new Error(
          `tariff document ${index} (${tariff.product_name} ${tariff.version}) cannot be compiled${versions}: ${(error as Error).message}`
        )
      }
  })
  return tariffs
}

/**
 * Decodes and compiles one tariff document read from a file, or says in one
 * line of bounded length its first problem: a command prints it after the
 * file's name.
 */
export const decodeTariffFile = (document: unknown, catalogue: Catalogue = shipped): Result.Result<Tariff, string> =>
  Result.flatMap(decodeTariffBriefly(document, catalogue), (tariff) => {
    try {
      planWithProduct(tariff, versionForTariff(catalogue, tariff.product_name, tariff.effective_from))
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
