/**
 * The product selection of offer and quote requests (spec §2.4): product name,
 * parameters and the one chosen feature.
 */
import { Schema } from "effect"
import {
  FEATURE_NAMES,
  PRODUCT_NAMES,
  productDocument,
  QUOTED_PRODUCT_NAMES,
  SHIPPED_PRODUCTS
} from "./ProductCatalogue.js"
import { parameterStrings, parametersSchemaOf, type ProductParameters } from "./Parameters.js"
import type { ParameterDocument } from "./ProductDocument.js"
import { rawAt } from "../input/Decoding.js"
import { OneOf, RequestArray, RequestObject } from "../input/Fields.js"

/** `{product_name, parameters, features: [{name}]}` as a request carries it, for a product of these parameters and features. */
const selectionSchema = (features: ReadonlyArray<string>, parameters: ReadonlyArray<ParameterDocument>) =>
  RequestObject({
    product_name: OneOf(PRODUCT_NAMES),
    parameters: parametersSchemaOf(parameters),
    features: RequestArray(RequestObject({ name: OneOf(features) })).check(
      Schema.isBetweenLength(1, 1, {
        message: "must hold exactly one feature",
        description: "The chosen feature: exactly one"
      })
    )
  })

/** Every parameter of the catalogue, once, as the first product that has it defines it; optional unless all have it. */
const catalogueParameters = (): Array<ParameterDocument> => {
  const byName = new Map<string, ParameterDocument>()
  for (const document of SHIPPED_PRODUCTS)
    for (const parameter of document.parameters) if (!byName.has(parameter.name)) byName.set(parameter.name, parameter)
  return [...byName.values()].map((parameter) =>
    SHIPPED_PRODUCTS.every((document) => document.parameters.some((candidate) => candidate.name === parameter.name))
      ? parameter
      : { ...parameter, required: false }
  )
}

/**
 * The product selection of any product of the catalogue: what the API reference shows, and what a request naming
 * no product of the catalogue is decoded with (its product_name is the violation; its parameters are checked as
 * any product's would be).
 */
const CATALOGUE_PARAMETERS = catalogueParameters()

/** The parameters of the product a request names, or the catalogue's for a name it lacks. */
export const parametersOf = (productName: unknown): ReadonlyArray<ParameterDocument> =>
  (typeof productName === "string" ? productDocument(productName)?.parameters : undefined) ?? CATALOGUE_PARAMETERS

export const ProductSelection = selectionSchema(FEATURE_NAMES, CATALOGUE_PARAMETERS)
export type ProductSelection = {
  readonly product_name: string
  readonly parameters: ProductParameters
  readonly features: ReadonlyArray<{ readonly name: string }>
}
export type ProductSelectionInput = typeof ProductSelection.Encoded

const SELECTIONS: ReadonlyMap<string, typeof ProductSelection> = new Map(
  PRODUCT_NAMES.map((name) => {
    const document = productDocument(name)!
    return [
      name,
      selectionSchema(
        document.features.map((feature) => feature.name),
        document.parameters
      )
    ]
  })
)

/**
 * A request Schema per product, made from each product's selection Schema once: `forRequest(input)` answers the one
 * of the product the request names (the catalogue's for a name it lacks).
 */
export const perProduct = <S>(make: (selection: typeof ProductSelection) => S): ((input: unknown) => S) => {
  const made = new Map<typeof ProductSelection, S>()
  return (input) => {
    const selection = selectionSchemaFor(rawAt(input, "product", "product_name"))
    let schema = made.get(selection)
    if (schema === undefined) {
      schema = make(selection)
      made.set(selection, schema)
    }
    return schema
  }
}

/** The selection Schema of the product a request names: its own parameters and features, or the catalogue's. */
export const selectionSchemaFor = (productName: unknown): typeof ProductSelection =>
  (typeof productName === "string" ? SELECTIONS.get(productName) : undefined) ?? ProductSelection

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
