/**
 * The product selection of offer and quote requests (spec §2.4): product name,
 * parameters and the one chosen feature.
 */
import { Schema } from "effect"
import { FEATURE_NAMES, PRODUCT_NAMES } from "./ProductCatalogue.js"
import { ProductParameters } from "./Parameters.js"
import { OneOf, RequestArray, RequestObject } from "./Fields.js"

const FeatureChoice = RequestObject({ name: OneOf(FEATURE_NAMES) })

/** `{product_name, parameters, features: [{name}]}` as a request carries it. */
export const ProductSelection = RequestObject({
  product_name: OneOf(PRODUCT_NAMES),
  parameters: ProductParameters,
  features: RequestArray(FeatureChoice).pipe(
    Schema.filter((features) => features.length === 1 || "must hold exactly one feature")
  )
})
export type ProductSelection = typeof ProductSelection.Type
export type ProductSelectionInput = typeof ProductSelection.Encoded

/** The feature a selection chose. */
export const chosenFeature = (selection: ProductSelection) => selection.features[0]!.name

/** The product selection as responses echo it: parameters in their string form, defaults filled in. */
export const ProductEcho = Schema.Struct({
  product_name: Schema.String,
  parameters: Schema.Record({ key: Schema.String, value: Schema.String }),
  features: Schema.Array(Schema.Struct({ name: Schema.String }))
})
export type ProductEcho = typeof ProductEcho.Type

const encodeSelection = Schema.encodeSync(ProductSelection)

/** Echoes a decoded selection, optionally under another product name (a quote's `private-…`/`business-…`). */
export const echoSelection = (selection: ProductSelection, productName: string = selection.product_name): ProductEcho => {
  const encoded = encodeSelection(selection)
  return { product_name: productName, parameters: { ...encoded.parameters }, features: encoded.features.map(({ name }) => ({ name })) }
}
