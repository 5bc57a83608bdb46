/**
 * The two products exactly as spec §2.1–2.3: parameters with their types,
 * required flags, default and options; features with their parameter_refs.
 */
import { Schema } from "effect"
import type { Variant } from "./Variant.js"

export const PRODUCT_NAMES = ["insurance-car-leasing", "insurance-car-standalone"] as const
export type ProductName = (typeof PRODUCT_NAMES)[number]

export const FEATURE_NAMES = ["standard", "premium"] as const
export type FeatureName = (typeof FEATURE_NAMES)[number]

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
type ParameterDefinition = typeof ParameterDefinition.Type

const Feature = Schema.Struct({
  name: Schema.Literals(FEATURE_NAMES),
  title: Schema.String,
  description: Schema.String,
  parameter_refs: Schema.Array(Schema.String)
})
type Feature = typeof Feature.Type

/** A product definition, the answer of `GET /products/{product_name}` (spec §2.1). */
export const ProductDefinition = Schema.Struct({
  product_name: Schema.Literals(PRODUCT_NAMES),
  title: Schema.String,
  parameters: Schema.Array(ParameterDefinition),
  features: Schema.Array(Feature)
})
export type ProductDefinition = typeof ProductDefinition.Type

const partyOptions = [
  { id: "person", title: "Privatperson" },
  { id: "organization", title: "Virksomhed" }
]

const PARAMETERS: ReadonlyArray<ParameterDefinition> = [
  {
    name: "payments_per_year",
    title: "Betalinger pr. år",
    type: "enum",
    required: true,
    default: "1",
    options: [
      { id: "1", title: 1 },
      { id: "12", title: 12 }
    ]
  },
  { name: "policy_holder", title: "Forsikringstager", type: "enum", required: true, options: partyOptions },
  {
    name: "vehicle_type",
    title: "Køretøjstype",
    type: "enum",
    required: true,
    options: [
      { id: "personbil", title: "Personbil" },
      { id: "varevogn", title: "Varevogn" }
    ]
  },
  { name: "vehicle_user", title: "Bruger af køretøjet", type: "enum", required: true, options: partyOptions },
  { name: "vehicle_owner", title: "Ejer af køretøjet", type: "enum", required: true, options: partyOptions },
  {
    name: "vehicle_usage",
    title: "Anvendelse af køretøjet",
    type: "enum",
    required: true,
    options: [
      { id: "privat_person_koersel", title: "Privat personkørsel" },
      { id: "godstransport_halv_omsaetning", title: "Godstransport, under halvdelen af omsætningen" },
      { id: "godstransport", title: "Godstransport" },
      { id: "godstransport_erhverv", title: "Godstransport, erhverv" },
      { id: "godstransport_privat/erhverv", title: "Godstransport, privat og erhverv" }
    ]
  },
  { name: "vehicle_price", title: "Køretøjets pris (kr.)", type: "number", required: true },
  { name: "youngest_user_age", title: "Yngste brugers alder", type: "number", required: false },
  { name: "youngest_user_birthdate", title: "Yngste brugers fødselsdato", type: "date", required: false }
]

const ALL_PARAMETER_NAMES = PARAMETERS.map((parameter) => parameter.name)

// Spec §2.3 lists the standalone product's seven refs in this order.
const STANDALONE_PARAMETER_NAMES = [
  "vehicle_user",
  "vehicle_usage",
  "policy_holder",
  "vehicle_type",
  "vehicle_owner",
  "payments_per_year",
  "vehicle_price"
]

const features = (parameterRefs: ReadonlyArray<string>): ReadonlyArray<Feature> => [
  {
    name: "standard",
    title: "Standard",
    description: "Lovpligtig ansvarsforsikring og kaskoforsikring med de dækninger, varianten giver.",
    parameter_refs: parameterRefs
  },
  {
    name: "premium",
    title: "Premium",
    description:
      "Standard med udvidede dækninger: lånebil, udvidet glas og udvidet førerulykke, eller førerulykke, retshjælp og redning i udlandet.",
    parameter_refs: parameterRefs
  }
]

const DEFINITIONS: Readonly<Record<ProductName, ProductDefinition>> = {
  "insurance-car-leasing": {
    product_name: "insurance-car-leasing",
    title: "Partnerbilforsikring, leasing",
    parameters: PARAMETERS,
    features: features(ALL_PARAMETER_NAMES)
  },
  "insurance-car-standalone": {
    product_name: "insurance-car-standalone",
    title: "Partnerbilforsikring, standalone",
    parameters: PARAMETERS,
    features: features(STANDALONE_PARAMETER_NAMES)
  }
}

const isProductName = (name: string): name is ProductName => (PRODUCT_NAMES as ReadonlyArray<string>).includes(name)

/** The definition of a product, or undefined for an unknown name. */
export const productDefinition = (name: string): ProductDefinition | undefined =>
  isProductName(name) ? DEFINITIONS[name] : undefined

// Spec §2.4 shows three of these; `business-car-insurance-standalone` is irregular, but it is what partners' clients read.
const QUOTED_NAMES: Readonly<Record<ProductName, Readonly<Record<Variant, string>>>> = {
  "insurance-car-leasing": { standard: "private-insurance-car-leasing", extended: "business-insurance-car-leasing" },
  "insurance-car-standalone": {
    standard: "private-insurance-car-standalone",
    extended: "business-car-insurance-standalone"
  }
}

/** The product name a quote answers with, one per product × variant (spec §2.4, DESIGN §2). */
export const quotedProductName = (name: ProductName, variant: Variant): string => QUOTED_NAMES[name][variant]

/** Every product name a quote may answer with: one per product × variant. */
export const QUOTED_PRODUCT_NAMES: ReadonlyArray<string> = Object.values(QUOTED_NAMES).flatMap(Object.values)

const PRODUCT_VARIANTS_BY_QUOTED_NAME: ReadonlyMap<string, { product_name: ProductName; variant: Variant }> = new Map(
  PRODUCT_NAMES.flatMap((product_name) =>
    (Object.entries(QUOTED_NAMES[product_name]) as Array<[Variant, string]>).map(
      ([variant, quoted]) => [quoted, { product_name, variant }] as const
    )
  )
)

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
