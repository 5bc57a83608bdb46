/**
 * The product selection of offer and quote requests (spec §2.4): product name,
 * parameters and the one chosen feature.
 * @module
 */
import { Schema } from "effect"
import { type Catalogue, perCatalogue, shipped } from "./ProductCatalogue.js"
import { parameterStrings, parametersSchemaOf, type ProductParameters } from "./Parameters.js"
import type { ParameterDocument } from "./ProductDocument.js"
import { rawAt } from "../input/Decoding.js"
import { OneOf, RequestArray, RequestObject } from "../input/Fields.js"

/** `{product_name, parameters, features: [{name}]}` as a request carries it, for a product of these parameters and features. */
const selectionSchema = (
  productNames: ReadonlyArray<string>,
  features: ReadonlyArray<string>,
  parameters: ReadonlyArray<ParameterDocument>
) =>
  RequestObject({
    product_name: OneOf(productNames),
    parameters: parametersSchemaOf(parameters),
    features: RequestArray(RequestObject({ name: OneOf(features) })).check(
      Schema.isBetweenLength(1, 1, {
        message: "must hold exactly one feature",
        description: "The chosen feature: exactly one"
      })
    )
  })

/** Every parameter of the catalogue, once, as the first product that has it defines it; optional unless all have it. */
const catalogueParameters = (catalogue: Catalogue): Array<ParameterDocument> => {
  const byName = new Map<string, ParameterDocument>()
  for (const document of catalogue.products)
    for (const parameter of document.parameters) if (!byName.has(parameter.name)) byName.set(parameter.name, parameter)
  return [...byName.values()].map((parameter) =>
    catalogue.products.every((document) => document.parameters.some((candidate) => candidate.name === parameter.name))
      ? parameter
      : { ...parameter, required: false }
  )
}

type SelectionSchema = ReturnType<typeof selectionSchema>

interface Selections {
  /**
   * The product selection of any product of the catalogue: what the API reference shows, and what a request naming
   * no product of the catalogue is decoded with (its product_name is the violation; its parameters are checked as
   * any product's would be).
   */
  readonly anyProduct: SelectionSchema
  readonly parameters: ReadonlyArray<ParameterDocument>
  readonly byProduct: ReadonlyMap<string, SelectionSchema>
}

const selectionsOf = perCatalogue((catalogue): Selections => {
  const parameters = catalogueParameters(catalogue)
  return {
    anyProduct: selectionSchema(catalogue.productNames, catalogue.featureNames, parameters),
    parameters,
    byProduct: new Map(
      catalogue.products.map((document) => [
        document.product_name,
        selectionSchema(
          catalogue.productNames,
          document.features.map((feature) => feature.name),
          document.parameters
        )
      ])
    )
  }
})

/** The parameters of the product a request names, or the catalogue's for a name it lacks. */
export const parametersOf = (productName: unknown, catalogue: Catalogue = shipped): ReadonlyArray<ParameterDocument> =>
  (typeof productName === "string" ? catalogue.document(productName)?.parameters : undefined) ??
  selectionsOf(catalogue).parameters

/** The product selection of any product of a catalogue: its Schema for a request naming no product of it. */
export const productSelectionOf = (catalogue: Catalogue): SelectionSchema => selectionsOf(catalogue).anyProduct

/** The product selection of any shipped product. */
export const ProductSelection = productSelectionOf(shipped)
export type ProductSelection = {
  readonly product_name: string
  readonly parameters: ProductParameters
  readonly features: ReadonlyArray<{ readonly name: string }>
}
/** A request's `product` as a client sends it, before it is decoded: product name, parameters, features. */
export type ProductSelectionInput = typeof ProductSelection.Encoded

/**
 * A request Schema per product of a catalogue, made from each product's selection Schema once: `forRequest(input,
 * catalogue)` answers the one of the product the request names (the catalogue's for a name it lacks).
 */
export const perProduct = <S>(
  make: (selection: typeof ProductSelection) => S
): ((input: unknown, catalogue: Catalogue) => S) => {
  const made = new WeakMap<typeof ProductSelection, S>()
  return (input, catalogue) => {
    const selection = selectionSchemaFor(rawAt(input, "product", "product_name"), catalogue)
    let schema = made.get(selection)
    if (schema === undefined) {
      schema = make(selection)
      made.set(selection, schema)
    }
    return schema
  }
}

/** The selection Schema of the product a request names: its own parameters and features, or the catalogue's. */
export const selectionSchemaFor = (productName: unknown, catalogue: Catalogue = shipped): typeof ProductSelection => {
  const selections = selectionsOf(catalogue)
  return (typeof productName === "string" ? selections.byProduct.get(productName) : undefined) ?? selections.anyProduct
}

/** The feature a selection chose. */
export const chosenFeature = (selection: ProductSelection) => selection.features[0]!.name

/** The selection as an answer echoes it, under one of `productNames`: parameters in their string form, defaults filled in. */
const productEcho = (productNames: ReadonlyArray<string>, featureNames: ReadonlyArray<string>) =>
  Schema.Struct({
    product_name: Schema.Literals(productNames),
    parameters: Schema.Record(Schema.String, Schema.String),
    features: Schema.Array(Schema.Struct({ name: Schema.Literals(featureNames) }))
  })

/** The product selection as an offer of a catalogue's products echoes it: the product requested. */
export const productEchoOf = perCatalogue((catalogue) => productEcho(catalogue.productNames, catalogue.featureNames))

/** The product selection as a quote of a catalogue's products echoes it: under the name of the product's variant (spec §2.4, DESIGN §2). */
export const quotedProductEchoOf = perCatalogue((catalogue) =>
  productEcho(catalogue.quotedProductNames, catalogue.featureNames)
)

/**
 * The product selection as any answer echoes it, its names as strings: what answers are written with, so that a
 * quote stored under a product or name the catalogue no longer has is answered as it was stored (a catalogue's own
 * Schemas, with its names as literals, document the API).
 */
export const AnyProductEcho = Schema.Struct({
  product_name: Schema.String,
  parameters: Schema.Record(Schema.String, Schema.String),
  features: Schema.Array(Schema.Struct({ name: Schema.String }))
})

/** The product selection as an offer of a shipped product echoes it. */
export const ProductEcho = productEchoOf(shipped)
export type ProductEcho = typeof ProductEcho.Type

/** The product selection as a quote of a shipped product echoes it. */
export const QuotedProductEcho = quotedProductEchoOf(shipped)

/** Echoes a decoded selection, optionally under another product name (a quote's `private-…`/`business-…`). */
export const echoSelection = (
  selection: ProductSelection,
  productName: string = selection.product_name
): ProductEcho => ({
  product_name: productName,
  parameters: parameterStrings(selection.parameters),
  features: [{ name: chosenFeature(selection) }]
})

/**
 * A request's violations, the one of its product's name saying when the product is first sold where the product is
 * one of the whole catalogue's whose first version has not taken effect on the date the request was decoded for
 * (`inForce`, the catalogue of that date, leaves it out); its parameters' and feature's then go, as nothing in force
 * can judge them.
 */
export const notSoldYet = <V extends { readonly field: string; readonly message: string }>(
  violations: ReadonlyArray<V>,
  productName: unknown,
  whole: Catalogue,
  inForce: Catalogue
): ReadonlyArray<V> => {
  if (typeof productName !== "string" || inForce.document(productName) !== undefined) return violations
  const first = whole.versionsOf(productName)[0]
  // its parameters and feature are its own, which no product in force judges: only when it is sold is said
  return first === undefined
    ? violations
    : violations.flatMap((violation) =>
        violation.field === "product.product_name"
          ? [
              {
                ...violation,
                message: `is not sold before ${first.effective_from}, when its first version takes effect`
              }
            ]
          : violation.field.startsWith("product.")
            ? []
            : [violation]
      )
}
