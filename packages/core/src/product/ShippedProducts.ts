/**
 * The product documents shipped with kasko: the two seed products (JSON under packages/core/products), read as
 * they are; the catalogue decodes them, and refuses to start on one that does not decode.
 */
import leasing from "../../products/insurance-car-leasing/product.json" with { type: "json" }
import standalone from "../../products/insurance-car-standalone/product.json" with { type: "json" }

/** The shipped product documents, undecoded. */
export const SHIPPED_PRODUCT_DOCUMENTS: ReadonlyArray<unknown> = [leasing, standalone]
