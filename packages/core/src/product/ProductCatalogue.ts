/**
 * The catalogue: the products one engine sells, each read from its document (ProductDocument.ts). `shipped` holds
 * the two seed products under packages/core/products; `fromDocuments` makes another (an insurer's own products,
 * `withProducts` beside the shipped ones). Everything the engine derives from a catalogue — request Schemas, variant
 * rules, answer Schemas — is made once per catalogue (`perCatalogue`). The definitions answer spec §2.1–2.3 exactly:
 * parameters with their types, required flags, default and options; features with their parameter_refs.
 * @module
 */
import { Schema } from "effect"
import {
  type PartyRole,
  type ProductDocument,
  ProductDocument as ProductDocumentSchema,
  type Variant
} from "./ProductDocument.js"
import { SHIPPED_PRODUCT_DOCUMENTS } from "./ShippedProducts.js"
import type { CalendarDate } from "../input/CalendarDate.js"

/** A product's name (`product_name`, e.g. `insurance-car-standalone`): one of the catalogue's products. */
export type ProductName = string
/** A feature's name (`feature`, e.g. `kasko`): one of its product's features, priced by the tariff. */
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
  /** Each product's newest version, in the catalogue's order. */
  readonly products: ReadonlyArray<ProductDocument>
  /** Every version of every product: each product's oldest first, the products in the catalogue's order. */
  readonly versions: ReadonlyArray<ProductDocument>
  readonly productNames: ReadonlyArray<ProductName>
  /** Every feature name of any product's any version, once. */
  readonly featureNames: ReadonlyArray<FeatureName>
  /** Every product name a quote may answer with: one per product × variant, of every version. */
  readonly quotedProductNames: ReadonlyArray<string>
  /** Every party role of any product once, as the first product that has it names it. */
  readonly partyRoles: ReadonlyArray<PartyRole>
  /** A product's newest document, or undefined for a name the catalogue lacks. */
  readonly document: (name: string) => ProductDocument | undefined
  /** A product's newest definition (what `GET /products/{name}` answers), or undefined for a name the catalogue lacks. */
  readonly definition: (name: string) => ProductDefinition | undefined
  /** The product and variant a quote's product name stands for; undefined for a name no quote answers with. */
  readonly quotedProduct: (quotedName: string) => QuotedProduct | undefined
  /** A product's versions, oldest first (by `effective_from`); none for a name the catalogue lacks. */
  readonly versionsOf: (name: string) => ReadonlyArray<ProductDocument>
  /**
   * The catalogue in force on a date: each product's version in force then (the newest whose `effective_from` is
   * on or before it), a product none of whose versions is in force yet left out: it is not sold before its first
   * version takes effect. The same catalogue for the same versions — this one when each product's newest version is
   * in force — so what is made of it is made once.
   */
  readonly on: (date: CalendarDate) => Catalogue
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

/** The later of two dates, written YYYY-MM-DD (so they compare as strings). */
const maxDate = (a: CalendarDate, b: CalendarDate): CalendarDate => (a > b ? a : b)

const onlyOnce = <A>(values: ReadonlyArray<A>, key: (value: A) => string): Array<A> => {
  const seen = new Set<string>()
  return values.filter((value) => !seen.has(key(value)) && seen.add(key(value)) !== undefined)
}

/** A product's versions, oldest first; throws when two of them share a version or a date they take effect on. */
const versionsInOrder = (name: string, documents: ReadonlyArray<ProductDocument>): Array<ProductDocument> => {
  const ordered = [...documents].sort((a, b) => (a.effective_from < b.effective_from ? -1 : 1))
  for (const [index, document] of ordered.entries())
    for (const earlier of ordered.slice(0, index)) {
      if (earlier.version === document.version)
        throw new Error(`the catalogue holds version ${document.version} of ${name} twice`)
      if (earlier.effective_from === document.effective_from)
        throw new Error(
          `versions ${earlier.version} and ${document.version} of ${name} both take effect on ${document.effective_from}`
        )
    }
  return ordered
}

/**
 * A catalogue of the versions of products `byProduct` holds (each product's oldest first); `inForceOn` answers
 * `on` — the whole catalogue's, so that a catalogue in force on a date answers for other dates as the whole does.
 */
const assemble = (
  byProduct: ReadonlyMap<string, ReadonlyArray<ProductDocument>>,
  inForceOn?: (date: CalendarDate) => Catalogue
): Catalogue => {
  const products = [...byProduct.values()].map((versions) => versions[versions.length - 1]!)
  const versions = [...byProduct.values()].flat()
  const newest = new Map(products.map((document) => [document.product_name, document]))
  const definitions = new Map(products.map((document) => [document.product_name, definitionOf(document)]))
  const byQuotedName = new Map<string, QuotedProduct>()
  for (const document of versions)
    for (const variant of document.variants) {
      const other = byQuotedName.get(variant.quoted_product_name)
      if (other !== undefined && (other.product_name !== document.product_name || other.variant !== variant.name))
        throw new Error(
          `${document.product_name} ${variant.name} and ${other.product_name} ${other.variant} both answer as ${variant.quoted_product_name}`
        )
      byQuotedName.set(variant.quoted_product_name, { product_name: document.product_name, variant: variant.name })
    }
  // on and after the latest date a product's newest version takes effect, every newest version is in force: the
  // catalogue is itself then
  const wholeFrom = products.reduce((latest, document) => maxDate(latest, document.effective_from), "")
  const inForce = new Map<string, Catalogue>()
  // the date changes once a day: the last one asked for, and its catalogue
  let lastDate: CalendarDate | undefined
  let lastCatalogue: Catalogue | undefined
  const catalogueOn = (date: CalendarDate): Catalogue => {
    if (date >= wholeFrom) return catalogue
    if (date === lastDate) return lastCatalogue!
    const chosen = new Map<string, ReadonlyArray<ProductDocument>>()
    for (const [name, versions] of byProduct) {
      const inForceThen = versions.filter((document) => document.effective_from <= date)
      if (inForceThen.length > 0) chosen.set(name, [inForceThen[inForceThen.length - 1]!])
    }
    const key = [...chosen.values()].map(([document]) => `${document!.product_name}@${document!.version}`).join(" ")
    let made = inForce.get(key)
    if (made === undefined) {
      made = assemble(chosen, catalogue.on)
      inForce.set(key, made)
    }
    lastDate = date
    lastCatalogue = made
    return made
  }
  const catalogue: Catalogue = {
    products,
    versions,
    productNames: [...byProduct.keys()],
    featureNames: [...new Set(versions.flatMap((document) => document.features.map((feature) => feature.name)))],
    quotedProductNames: [...byQuotedName.keys()],
    partyRoles: onlyOnce(
      versions.flatMap((document) => document.party_roles),
      (role) => role.role
    ),
    document: (name) => newest.get(name),
    definition: (name) => definitions.get(name),
    quotedProduct: (quotedName) => byQuotedName.get(quotedName),
    versionsOf: (name) => byProduct.get(name) ?? [],
    on: inForceOn ?? catalogueOn
  }
  return catalogue
}

/**
 * A catalogue of decoded product documents: one or several versions of each product, each taking effect on its
 * `effective_from`. Two versions of a product with one version or one date, or two products' variants answering
 * with one quoted name, are a fault of whoever assembled the documents (`kasko products check` says so of
 * folders): thrown.
 */
export const fromDocuments = (documents: ReadonlyArray<ProductDocument>): Catalogue => {
  const byProduct = new Map<string, Array<ProductDocument>>()
  for (const document of documents) {
    const versions = byProduct.get(document.product_name)
    if (versions === undefined) byProduct.set(document.product_name, [document])
    else versions.push(document)
  }
  for (const [name, versions] of byProduct) byProduct.set(name, versionsInOrder(name, versions))
  return assemble(byProduct)
}

/** Decodes product documents (JSON as read) into a catalogue, throwing on the first that does not decode. */
export const decodeCatalogue = (documents: ReadonlyArray<unknown>): Catalogue =>
  fromDocuments(documents.map((document) => Schema.decodeUnknownSync(ProductDocumentSchema)(document)))

// decoded once when the core loads: a shipped document that does not decode is a fault of the build, not of a request
/** The shipped products: the two seed products, as their documents under packages/core/products say. */
export const shipped: Catalogue = decodeCatalogue(SHIPPED_PRODUCT_DOCUMENTS)

/**
 * The products of `base` (the shipped ones unless given) and these documents (one or several versions of each): a
 * product named like one of `base`'s replaces it, every version, in its place; the others follow in their order.
 */
export const withProducts = (documents: ReadonlyArray<ProductDocument>, base: Catalogue = shipped): Catalogue => {
  const added = new Set(documents.map((document) => document.product_name))
  const kept = base.versions.filter((document) => !added.has(document.product_name))
  const replacing = (name: string) => documents.filter((document) => document.product_name === name)
  return fromDocuments([
    ...base.productNames.flatMap((name) =>
      added.has(name) ? replacing(name) : kept.filter((document) => document.product_name === name)
    ),
    ...documents.filter((document) => base.document(document.product_name) === undefined)
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

/**
 * The version of a product a tariff taking effect on `date` is written for: the one in force then, or its first when
 * none is yet (a book refuses such a tariff: `TariffDocuments.decodeTariffs`); undefined for a product the catalogue
 * lacks.
 */
export const versionForTariff = (
  catalogue: Catalogue,
  productName: string,
  date: CalendarDate
): ProductDocument | undefined => catalogue.on(date).document(productName) ?? catalogue.versionsOf(productName)[0]

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
