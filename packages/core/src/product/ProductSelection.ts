/**
 * The product selection of offer and quote requests (spec §2.4): product name,
 * parameters and the one chosen feature.
 */
import { Schema } from "effect"
import { FEATURE_NAMES, PRODUCT_NAMES, QUOTED_PRODUCT_NAMES } from "./ProductCatalogue.js"
import { parameterStrings, ProductParameters } from "./Parameters.js"
import { OneOf, RequestArray, RequestObject } from "../input/Fields.js"

const FeatureChoice = RequestObject({ name: OneOf(FEATURE_NAMES) })

/** `{product_name, parameters, features: [{name}]}` as a request carries it. */
export const ProductSelection = RequestObject({
  product_name: OneOf(PRODUCT_NAMES),
  parameters: ProductParameters,
  features: RequestArray(FeatureChoice).check(
    Schema.isBetweenLength(1, 1, {
      message: "must hold exactly one feature",
      description: "The chosen feature: exactly one"
    })
  )
})
export type ProductSelection = typeof ProductSelection.Type
export type ProductSelectionInput = typeof ProductSelection.Encoded

/** The feature a selection chose. */
export const chosenFeature = (selection: ProductSelection) => selection.features[0]!.name

/** The selection as an answer echoes it, under one of `productNames`: parameters in their string form, defaults filled in. */
const productEcho = (productNames: ReadonlyArray<string>) =>
  Schema.Struct({
    product_name: Schema.Literals(productNames),
    parameters: Schema.Record(Schema.String, Schema.String),
    features: Schema.Array(Schema.Struct({ name: Schema.Literals(FEATURE_NAMES) }))
  })

/** The product selection as an offer echoes it: the product requested. */
export const ProductEcho = productEcho(PRODUCT_NAMES)
export type ProductEcho = typeof ProductEcho.Type

/** The product selection as a quote echoes it: under the name of the product's variant (spec §2.4, DESIGN §2). */
export const QuotedProductEcho = productEcho(QUOTED_PRODUCT_NAMES)

/** Echoes a decoded selection, optionally under another product name (a quote's `private-…`/`business-…`). */
export const echoSelection = (
  selection: ProductSelection,
  productName: string = selection.product_name
): ProductEcho => ({
  product_name: productName,
  parameters: parameterStrings(selection.parameters),
  features: [{ name: chosenFeature(selection) }]
})
