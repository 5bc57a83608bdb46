/**
 * The tariff versions the engine may price with: every product, every version,
 * including versions whose `effective_from` lies ahead — and the catalogue of the
 * products they price, which the engine decodes requests and writes answers by.
 * @module
 */
import { Context, Layer } from "effect"
import type { Tariff } from "../pricing/Tariff.js"
import { catalogueTariffDocuments, decodeTariffs, SHIPPED_TARIFF_DOCUMENTS } from "../pricing/TariffDocuments.js"
import { type Catalogue, shipped as shippedCatalogue } from "../product/ProductCatalogue.js"
import { selectionSchemaFor } from "../product/ProductSelection.js"
import { variantOfCase } from "../product/Variant.js"

/** How a TariffBook fires rules: compiled (the service's way), or with json-rules-engine (the reference interpreter). */
type RuleEngine = "compiled" | "json-rules-engine"

/**
 * The TariffBook port: the tariff versions loaded, the products they price, and the rule engine that fires them.
 * Provide `shipped`, or `layer(documents)` / `ofCatalogue` for tariffs and products of your own.
 */
export class TariffBook extends Context.Service<
  TariffBook,
  {
    readonly tariffs: ReadonlyArray<Tariff>
    readonly rules: RuleEngine
    /** The products the tariffs price: what requests are decoded against and answers written with. */
    readonly catalogue: Catalogue
  }
>()("@kasko/core/TariffBook") {}

/**
 * The catalogue's request Schemas and variant rules, made now rather than by the first request of each product: of
 * the catalogue in force from each date a version of a product takes effect.
 */
const prepare = (catalogue: Catalogue): Catalogue => {
  for (const inForce of new Set(catalogue.versions.map((version) => catalogue.on(version.effective_from))))
    for (const document of inForce.products) {
      selectionSchemaFor(document.product_name, inForce)
      variantOfCase(document, {})
    }
  return catalogue
}

/**
 * A TariffBook of the given tariff documents (an actuary's, or tests'), of the products of `catalogue` (the shipped
 * ones unless given); rules compiled unless asked otherwise.
 */
export const layer = (
  documents: ReadonlyArray<unknown>,
  rules: RuleEngine = "compiled",
  catalogue: Catalogue = shippedCatalogue
): Layer.Layer<TariffBook> =>
  Layer.sync(TariffBook, () => ({ tariffs: decodeTariffs(documents, catalogue), rules, catalogue: prepare(catalogue) }))

/**
 * A TariffBook of a catalogue's products (`ProductCatalogue.withProducts`: an insurer's own beside the shipped ones):
 * the tariff documents of the products it added or replaced, and the shipped tariffs of the shipped products it
 * keeps as they are. What `Kasko.make` and the service are given to sell products added as data.
 */
export const ofCatalogue = (catalogue: Catalogue, documents: ReadonlyArray<unknown>): Layer.Layer<TariffBook> =>
  layer(catalogueTariffDocuments(catalogue, documents), "compiled", catalogue)

/** The TariffBook of the shipped reference tariff. */
export const shipped: Layer.Layer<TariffBook> = layer(SHIPPED_TARIFF_DOCUMENTS)
