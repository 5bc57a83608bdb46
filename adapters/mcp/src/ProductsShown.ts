/**
 * What a session shows a partner limited to some products (issue 47): a catalogue of only those products, every
 * version of each, in the catalogue's order — so that its tools' enums and descriptions and its resources name no
 * other, as `GET /products/{name}` answers 404 for the others. Made once per catalogue and list, so the tools and
 * resources made of it (`perCatalogue`) are made once too, not on every request.
 */
import { ProductCatalogue } from "@kasko/core"
import { PartnerProducts } from "@kasko/core/administration"

// per catalogue, the catalogues shown, by the names they keep: as many as the partners' lists differ
const shownOf = new WeakMap<ProductCatalogue.Catalogue, Map<string, ProductCatalogue.Catalogue>>()

/** The part of `catalogue` a partner selling `products` is shown: the catalogue itself when it may sell every product. */
export const catalogueShown = (
  catalogue: ProductCatalogue.Catalogue,
  products: PartnerProducts.ProductsSold
): ProductCatalogue.Catalogue => {
  const names = PartnerProducts.productsShown(products, catalogue.productNames)
  if (names.length === catalogue.productNames.length) return catalogue
  let shown = shownOf.get(catalogue)
  if (shown === undefined) {
    shown = new Map()
    shownOf.set(catalogue, shown)
  }
  const key = JSON.stringify(names)
  let made = shown.get(key)
  if (made === undefined) {
    made = ProductCatalogue.fromDocuments(
      catalogue.versions.filter((document) => names.includes(document.product_name))
    )
    shown.set(key, made)
  }
  return made
}
