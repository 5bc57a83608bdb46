/**
 * The catalogue an impact test prices over: the shipped products, and beside
 * them the product documents a comparison carries (an insurer's own, as
 * `--products DIR` loads them). A comparison is plain data — what a worker
 * thread or a web worker starts with — so it carries the documents, and each
 * thread makes the catalogue of them once. A tariff that crossed to a worker is
 * decoded against that catalogue again: a structured clone keeps nothing of the
 * catalogue the tariff was decoded against, and its plan would read the
 * shipped products' facts. Browser-safe.
 */
import { ProductCatalogue, Tariff, TariffDocuments } from "@kasko/core/actuarial"
import { Schema } from "effect"

const catalogues = new WeakMap<ReadonlyArray<unknown>, ProductCatalogue.Catalogue>()

/**
 * The shipped products with these product documents (JSON, as `product.json` and `versions/*.json` hold them, every
 * version) beside them, a document
 * named like a shipped product in its place (`ProductCatalogue.withProducts`); the shipped catalogue for none. Made
 * once per array of documents; throws on a document that does not decode.
 */
export const catalogueOfProducts = (products: ReadonlyArray<unknown> | undefined): ProductCatalogue.Catalogue => {
  if (products === undefined) return ProductCatalogue.shipped
  let catalogue = catalogues.get(products)
  if (catalogue === undefined) {
    catalogue = ProductCatalogue.withProducts(ProductCatalogue.decodeCatalogue(products).versions)
    catalogues.set(products, catalogue)
  }
  return catalogue
}

/** Decoded tariffs (or copies of them) decoded anew against a catalogue, so that each prices over its product there. */
export const tariffsOverCatalogue = (
  tariffs: ReadonlyArray<Tariff.Tariff>,
  catalogue: ProductCatalogue.Catalogue
): ReadonlyArray<Tariff.Tariff> => {
  const encode = Schema.encodeSync(Tariff.tariffSchemaOf(catalogue))
  return TariffDocuments.decodeTariffs(
    tariffs.map((tariff) => encode(tariff)),
    catalogue
  )
}
