/**
 * The catalogue: the products one engine sells, each read from its document (ProductDocument.ts). `shipped` holds
 * the two seed products under packages/core/products; `fromDocuments` makes another (an insurer's own products,
 * `withProducts` beside the shipped ones). Everything the engine derives from a catalogue — request Schemas, variant
 * rules, answer Schemas — is made once per catalogue (`perCatalogue`). The definitions answer spec §2.1–2.3 exactly:
 * parameters with their types, required flags, default and options; features with their parameter_refs.
 */
import { Schema } from "effect"
import {
  type PartyRole,
  type ProductDocument,
  ProductDocument as ProductDocumentSchema,
  type Variant
} from "./ProductDocument.js"
import { SHIPPED_PRODUCT_DOCUMENTS } from "./ShippedProducts.js"

export type ProductName = string
export type FeatureName = string

const ParameterOption = Schema.Struct({
  id: Schema.String,
  title: Schema.Union([Schema.String, Schema.Finite])
})

const ParameterDefinition = Schema.Struct({
  name: Schema.String,
  title: Schema.String,
  type: Schema.Literals(["enum", "number", "date"]),
  required: Schema.Boolean,
  default: Schema.optionalKey(Schema.String),
  options: Schema.optionalKey(Schema.Array(ParameterOption))
})

const definitionSchema = (productNames: ReadonlyArray<string>, featureNames: ReadonlyArray<string>) =>
  Schema.Struct({
    product_name: Schema.Literals(productNames),
    title: Schema.String,
    parameters: Schema.Array(ParameterDefinition),
    features: Schema.Array(
      Schema.Struct({
        name: Schema.Literals(featureNames),
        title: Schema.String,
        description: Schema.String,
        parameter_refs: Schema.Array(Schema.String)
      })
    )
  })

/** A product definition, the answer of `GET /products/{product_name}` (spec §2.1). */
export type ProductDefinition = typeof ProductDefinition.Type

/** The product and variant a quote's product name stands for. */
export interface QuotedProduct {
  readonly product_name: ProductName
  readonly variant: Variant
}

/** The products one engine sells, looked up by name. Made by `fromDocuments`; compare catalogues by identity. */
export interface Catalogue {
  /** The products' documents, decoded, in the catalogue's order. */
  readonly products: ReadonlyArray<ProductDocument>
  readonly productNames: ReadonlyArray<ProductName>
  /** Every feature name of any product, once. */
  readonly featureNames: ReadonlyArray<FeatureName>
  /** Every product name a quote may answer with: one per product × variant. */
  readonly quotedProductNames: ReadonlyArray<string>
  /** Every party role of any product once, as the first product that has it names it. */
  readonly partyRoles: ReadonlyArray<PartyRole>
  /** A product's document, or undefined for a name the catalogue lacks. */
  readonly document: (name: string) => ProductDocument | undefined
  /** A product's definition (what `GET /products/{name}` answers), or undefined for a name the catalogue lacks. */
  readonly definition: (name: string) => ProductDefinition | undefined
  /** The product and variant a quote's product name stands for; undefined for a name no quote answers with. */
  readonly quotedProduct: (quotedName: string) => QuotedProduct | undefined
}

/** A document's definition: what `GET /products/{name}` answers, the document's words for the API alone. */
const definitionOf = (document: ProductDocument): ProductDefinition => ({
  product_name: document.product_name,
  title: document.title,
  parameters: document.parameters.map((parameter) => ({
    name: parameter.name,
    title: parameter.title,
    type: parameter.type,
    required: parameter.required,
    ...(parameter.default === undefined ? {} : { default: parameter.default }),
    ...(parameter.options === undefined ? {} : { options: parameter.options })
  })),
  features: document.features
})

const onlyOnce = <A>(values: ReadonlyArray<A>, key: (value: A) => string): Array<A> => {
  const seen = new Set<string>()
  return values.filter((value) => !seen.has(key(value)) && seen.add(key(value)) !== undefined)
}

/**
 * A catalogue of decoded product documents. Two products of one name, or two variants answering with one quoted
 * name, are a fault of whoever assembled the documents (`kasko products check` says so of folders): thrown.
 */
export const fromDocuments = (products: ReadonlyArray<ProductDocument>): Catalogue => {
  const byName = new Map<string, ProductDocument>()
  const definitions = new Map<string, ProductDefinition>()
  const byQuotedName = new Map<string, QuotedProduct>()
  for (const document of products) {
    if (byName.has(document.product_name)) throw new Error(`the catalogue holds product ${document.product_name} twice`)
    byName.set(document.product_name, document)
    definitions.set(document.product_name, definitionOf(document))
    for (const variant of document.variants) {
      const other = byQuotedName.get(variant.quoted_product_name)
      if (other !== undefined)
        throw new Error(
          `${document.product_name} ${variant.name} and ${other.product_name} ${other.variant} both answer as ${variant.quoted_product_name}`
        )
      byQuotedName.set(variant.quoted_product_name, { product_name: document.product_name, variant: variant.name })
    }
  }
  return {
    products,
    productNames: [...byName.keys()],
    featureNames: [...new Set(products.flatMap((document) => document.features.map((feature) => feature.name)))],
    quotedProductNames: [...byQuotedName.keys()],
    partyRoles: onlyOnce(
      products.flatMap((document) => document.party_roles),
      (role) => role.role
    ),
    document: (name) => byName.get(name),
    definition: (name) => definitions.get(name),
    quotedProduct: (quotedName) => byQuotedName.get(quotedName)
  }
}

/** Decodes product documents (JSON as read) into a catalogue, throwing on the first that does not decode. */
export const decodeCatalogue = (documents: ReadonlyArray<unknown>): Catalogue =>
  fromDocuments(documents.map((document) => Schema.decodeUnknownSync(ProductDocumentSchema)(document)))

// decoded once when the core loads: a shipped document that does not decode is a fault of the build, not of a request
/** The shipped products: the two seed products, as their documents under packages/core/products say. */
export const shipped: Catalogue = decodeCatalogue(SHIPPED_PRODUCT_DOCUMENTS)

/**
 * The products of `base` (the shipped ones unless given) and these: a document named like one of `base`'s replaces
 * it in its place, the others follow in their order.
 */
export const withProducts = (products: ReadonlyArray<ProductDocument>, base: Catalogue = shipped): Catalogue => {
  const added = new Map(products.map((document) => [document.product_name, document]))
  return fromDocuments([
    ...base.products.map((document) => added.get(document.product_name) ?? document),
    ...products.filter((document) => base.document(document.product_name) === undefined)
  ])
}

/**
 * What is made of a catalogue, made once per catalogue and kept while the catalogue lives: a Schema whose literals
 * list its names, a compiled rule. Made the first time it is asked for.
 */
export const perCatalogue = <A>(make: (catalogue: Catalogue) => A): ((catalogue: Catalogue) => A) => {
  const made = new WeakMap<Catalogue, A>()
  return (catalogue) => {
    let value = made.get(catalogue)
    if (value === undefined) {
      value = make(catalogue)
      made.set(catalogue, value)
    }
    return value
  }
}

/** The product definition Schema of a catalogue: its product and feature names as literals. */
export const definitionSchemaOf = perCatalogue((catalogue) =>
  definitionSchema(catalogue.productNames, catalogue.featureNames)
)

/** A product definition as answers write it, its names as strings: of whichever catalogue answered it. */
export const AnyProductDefinition = Schema.Struct({
  ...definitionSchema([], []).fields,
  product_name: Schema.String,
  features: Schema.Array(
    Schema.Struct({
      name: Schema.String,
      title: Schema.String,
      description: Schema.String,
      parameter_refs: Schema.Array(Schema.String)
    })
  )
})

/** The product definition Schema of the shipped catalogue. */
export const ProductDefinition = definitionSchema(shipped.productNames, shipped.featureNames)

/** The shipped products' documents, decoded. */
export const SHIPPED_PRODUCTS: ReadonlyArray<ProductDocument> = shipped.products

/** A product's document in a catalogue (the shipped one unless given), or undefined for an unknown name. */
export const productDocument = (name: string, catalogue: Catalogue = shipped): ProductDocument | undefined =>
  catalogue.document(name)

/** The shipped products' names. */
export const PRODUCT_NAMES: ReadonlyArray<string> = shipped.productNames

/** The shipped products' feature names. */
export const FEATURE_NAMES: ReadonlyArray<string> = shipped.featureNames

/**
 * The party roles a quote's parties must match, and the parameters that say which kind each is: the named
 * product's, or every product's for a name the catalogue lacks (its product_name is the violation then).
 */
export const partyRolesOf = (productName: unknown, catalogue: Catalogue = shipped): ReadonlyArray<PartyRole> =>
  (typeof productName === "string" ? catalogue.document(productName)?.party_roles : undefined) ?? catalogue.partyRoles

/** The facts every product's tariff may read, whatever its parameters: which product, variant and feature. */
export const PRODUCT_FACT_NAMES = ["product_name", "variant", "feature"] as const

/** The facts a product's tariff may read, in the order a rating worksheet records them: the product's, then its parameters marked as facts. */
export const factNamesOf = (document: ProductDocument): ReadonlyArray<string> => [
  ...PRODUCT_FACT_NAMES,
  ...document.parameters.flatMap((parameter) => (parameter.fact === true ? [parameter.name] : []))
]

/** The definition of a product, or undefined for an unknown name. */
export const productDefinition = (name: string, catalogue: Catalogue = shipped): ProductDefinition | undefined =>
  catalogue.definition(name)

/** The product name a quote answers with, one per product × variant (spec §2.4, DESIGN §2). */
export const quotedProductName = (name: ProductName, variant: Variant, catalogue: Catalogue = shipped): string => {
  const quoted = catalogue.document(name)?.variants.find((candidate) => candidate.name === variant)?.quoted_product_name
  if (quoted === undefined) throw new Error(`the catalogue has no variant ${variant} of ${name}`)
  return quoted
}

/** Every product name a quote of the shipped products may answer with: one per product × variant. */
export const QUOTED_PRODUCT_NAMES: ReadonlyArray<string> = shipped.quotedProductNames

/** The product and variant a quote's product name stands for; undefined for a name no quote answers with. */
export const productVariantOfQuotedName = (
  quotedName: string,
  catalogue: Catalogue = shipped
): QuotedProduct | undefined => catalogue.quotedProduct(quotedName)

/** The insurer, shown on Standard variant policies (spec §2.9). */
export const INSURER = {
  organization: { cvr_number: "12345674", name: "Kasko Forsikring A/S" },
  address: { street: "Forsikringsvej", house_number: "1", postal_code: 2100, city: "København Ø" }
} as const
