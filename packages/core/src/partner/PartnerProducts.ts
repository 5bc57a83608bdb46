/**
 * The products a partner may sell (issue 47): none named, every product of the catalogue. A product it may not
 * sell is not shown to it (its definition is not found) and is not priced or quoted for it (a violation on
 * `product.product_name`).
 * @module
 */
import { ConstraintViolation } from "../Errors.js"

/** The names of the products a partner may sell, or undefined: every product. */
export type ProductsSold = ReadonlyArray<string> | undefined

/** Whether a partner selling `products` may sell `productName`. */
export const maySell = (products: ProductsSold, productName: string): boolean =>
  products === undefined || products.includes(productName)

/** The catalogue's products a partner selling `products` sees, in the catalogue's order. */
export const productsShown = (products: ProductsSold, catalogue: ReadonlyArray<string>): ReadonlyArray<string> =>
  products === undefined ? catalogue : catalogue.filter((name) => products.includes(name))

/** The message of the violation a request naming a product the partner may not sell gets. */
const notAvailable = (products: ReadonlyArray<string>): string =>
  products.length === 0
    ? "is not available to this partner, which may sell no product"
    : `is not available to this partner, which may sell: ${products.join(", ")}`

/**
 * The violation of a request (an offer or a quote request, as sent) whose `product.product_name` names a product
 * the partner may not sell; undefined when it may, or when the name is not a text (decoding reports that).
 */
export const unavailableProduct = (products: ProductsSold, input: unknown): ConstraintViolation | undefined => {
  if (products === undefined || typeof input !== "object" || input === null) return undefined
  const product = (input as { readonly product?: unknown }).product
  if (typeof product !== "object" || product === null) return undefined
  const productName = (product as { readonly product_name?: unknown }).product_name
  if (typeof productName !== "string" || products.includes(productName)) return undefined
  return new ConstraintViolation({
    violations: [{ field: "product.product_name", message: notAvailable(products) }]
  })
}

/**
 * The products named for a partner, checked against the catalogue's `known` names: each unknown one is a
 * violation on `products` naming it. Duplicates are kept once, in the order given.
 */
export const checkedProducts = (
  products: ReadonlyArray<string>,
  known: ReadonlyArray<string>
): { readonly products: ReadonlyArray<string> } | { readonly violation: ConstraintViolation } => {
  const unknown = products.filter((name) => !known.includes(name))
  const [first, ...rest] = unknown.map((name) => ({
    field: "products",
    message: `"${name}" is not a product of the catalogue; products are: ${known.join(", ")}`
  }))
  if (first !== undefined) return { violation: new ConstraintViolation({ violations: [first, ...rest] }) }
  return { products: [...new Set(products)] }
}
