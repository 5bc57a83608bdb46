/**
 * The catalogue: the products kasko sells, read from their documents (ProductDocument.ts) — the two seed products
 * shipped under packages/core/products. Their definitions answer spec §2.1–2.3 exactly: parameters with their
 * types, required flags, default and options; features with their parameter_refs.
 */
import { Schema } from "effect"
import {
  type PartyRole,
  type ProductDocument,
  ProductDocument as ProductDocumentSchema,
  type Variant
} from "./ProductDocument.js"
import { SHIPPED_PRODUCT_DOCUMENTS } from "./ShippedProducts.js"

// decoded once when the core loads: a shipped document that does not decode is a fault of the build, not of a request
const SHIPPED: ReadonlyArray<ProductDocument> = SHIPPED_PRODUCT_DOCUMENTS.map((document) =>
  Schema.decodeUnknownSync(ProductDocumentSchema)(document)
)

/** The shipped products' documents, decoded. */
export const SHIPPED_PRODUCTS: ReadonlyArray<ProductDocument> = SHIPPED

const BY_NAME: ReadonlyMap<string, ProductDocument> = new Map(
  SHIPPED.map((document) => [document.product_name, document])
)

/** The shipped products' document of a product, or undefined for an unknown name. */
export const productDocument = (name: string): ProductDocument | undefined => BY_NAME.get(name)

export const PRODUCT_NAMES: ReadonlyArray<string> = SHIPPED.map((document) => document.product_name)
export type ProductName = string

export const FEATURE_NAMES: ReadonlyArray<string> = [
  ...new Set(SHIPPED.flatMap((document) => document.features.map((feature) => feature.name)))
]
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

const Feature = Schema.Struct({
  name: Schema.Literals(FEATURE_NAMES),
  title: Schema.String,
  description: Schema.String,
  parameter_refs: Schema.Array(Schema.String)
})

/** A product definition, the answer of `GET /products/{product_name}` (spec §2.1). */
export const ProductDefinition = Schema.Struct({
  product_name: Schema.Literals(PRODUCT_NAMES),
  title: Schema.String,
  parameters: Schema.Array(ParameterDefinition),
  features: Schema.Array(Feature)
})
export type ProductDefinition = typeof ProductDefinition.Type

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

const DEFINITIONS: ReadonlyMap<string, ProductDefinition> = new Map(
  SHIPPED.map((document) => [document.product_name, definitionOf(document)])
)

// every role of the catalogue once, as the first product that has it names it
const CATALOGUE_PARTY_ROLES: ReadonlyArray<PartyRole> = SHIPPED.flatMap((document) => document.party_roles).filter(
  (role, index, roles) => roles.findIndex((earlier) => earlier.role === role.role) === index
)

/**
 * The party roles a quote's parties must match, and the parameters that say which kind each is: the named
 * product's, or every product's for a name the catalogue lacks (its product_name is the violation then).
 */
export const partyRolesOf = (productName: unknown): ReadonlyArray<PartyRole> =>
  (typeof productName === "string" ? productDocument(productName)?.party_roles : undefined) ?? CATALOGUE_PARTY_ROLES

/** The facts every product's tariff may read, whatever its parameters: which product, variant and feature. */
export const PRODUCT_FACT_NAMES = ["product_name", "variant", "feature"] as const

/** The facts a product's tariff may read, in the order a rating worksheet records them: the product's, then its parameters marked as facts. */
export const factNamesOf = (document: ProductDocument): ReadonlyArray<string> => [
  ...PRODUCT_FACT_NAMES,
  ...document.parameters.flatMap((parameter) => (parameter.fact === true ? [parameter.name] : []))
]

/** The definition of a product, or undefined for an unknown name. */
export const productDefinition = (name: string): ProductDefinition | undefined => DEFINITIONS.get(name)

/** The product name a quote answers with, one per product × variant (spec §2.4, DESIGN §2). */
export const quotedProductName = (name: ProductName, variant: Variant): string => {
  const quoted = productDocument(name)?.variants.find((candidate) => candidate.name === variant)?.quoted_product_name
  if (quoted === undefined) throw new Error(`the catalogue has no variant ${variant} of ${name}`)
  return quoted
}

const PRODUCT_VARIANTS_BY_QUOTED_NAME: ReadonlyMap<string, { product_name: ProductName; variant: Variant }> = new Map(
  SHIPPED.flatMap((document) =>
    document.variants.map(
      (variant) =>
        [variant.quoted_product_name, { product_name: document.product_name, variant: variant.name }] as const
    )
  )
)

/** Every product name a quote may answer with: one per product × variant. */
export const QUOTED_PRODUCT_NAMES: ReadonlyArray<string> = [...PRODUCT_VARIANTS_BY_QUOTED_NAME.keys()]

/** The product and variant a quote's product name stands for; undefined for a name no quote answers with. */
export const productVariantOfQuotedName = (
  quotedName: string
): { readonly product_name: ProductName; readonly variant: Variant } | undefined =>
  PRODUCT_VARIANTS_BY_QUOTED_NAME.get(quotedName)

/** The insurer, shown on Standard variant policies (spec §2.9). */
export const INSURER = {
  organization: { cvr_number: "12345674", name: "Kasko Forsikring A/S" },
  address: { street: "Forsikringsvej", house_number: "1", postal_code: 2100, city: "København Ø" }
} as const
