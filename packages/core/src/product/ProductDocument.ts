/**
 * A product as data: the document an insurer writes to sell a car product — its
 * parameters, features, variant rule, the product name a quote answers with per
 * variant, vehicle codes, the parameters that name the parties' roles, and the
 * words of its documents. It carries a version and the date it takes effect, like a tariff: a catalogue may hold
 * several versions of a product, and a case is decoded, priced and named by the one in force on its pricing date; a
 * quote keeps the version it was made under in its rating worksheet, beside the tariff's. Decoded
 * with Schema when loaded; its JSON Schema (`products/product.schema.json`) is
 * generated from this one, so editors complete and check it as it is written.
 * @module
 */
import { Schema } from "effect"
import { isCalendarDate } from "../input/CalendarDate.js"
import { COMPARISON_OPERATORS, MEMBERSHIP_OPERATORS } from "../pricing/Operators.js"

const NAME = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/

// a name every JavaScript object already answers to (constructor, hasOwnProperty, __proto__ …) would read as given
// when it is not, wherever the engine keys an object by it
const isObjectMember = (name: string) => name in Object.prototype

const Name = (what: string) =>
  Schema.String.check(
    Schema.makeFilter(
      (value: string) =>
        (NAME.test(value) && !isObjectMember(value)) ||
        `must be a ${what}: lower-case letters, digits, - or _, and not a name every object has (${value})`
    )
  )

/** An option's id: any text but a name every object already has. */
const OptionId = Schema.String.check(
  Schema.makeFilter(
    (value: string) => !isObjectMember(value) || `must not be a name every object has (${value}): it is read as given`
  )
)

const Words = Schema.String.check(Schema.makeFilter((value: string) => value.trim() !== "" || "must not be blank"))

const DateString = Schema.String.check(
  Schema.makeFilter((value: string) => isCalendarDate(value) || "must be a date YYYY-MM-DD")
)

const Option = Schema.Struct({
  id: OptionId,
  title: Schema.Union([Schema.String, Schema.Finite])
})

/** One parameter a request carries as a JSON string (spec §2.2): its type, whether required, its options or range. */
export const ParameterDocument = Schema.Struct({
  name: Name("parameter name"),
  title: Words,
  type: Schema.Literals(["enum", "number", "date"]),
  required: Schema.Boolean,
  default: Schema.optionalKey(Schema.String),
  /** An enum's options, in the order the definition lists them. */
  options: Schema.optionalKey(Schema.Array(Option)),
  /** A number's smallest and largest value. */
  minimum: Schema.optionalKey(Schema.Int),
  maximum: Schema.optionalKey(Schema.Int),
  /** What the parameter means, for the API reference. */
  description: Schema.optionalKey(Words),
  /** The tariff's rules read it (a fact of the same name, null when not given), and the rating worksheet records it. */
  fact: Schema.optionalKey(Schema.Boolean),
  /**
   * A birth date that stands for a number parameter, an age: its age on the pricing date must lie in that
   * parameter's range and agree with it when both are given, and is that parameter's fact when it is not given.
   * `who` names the person in the words of the violations ("the youngest driver").
   */
  age_of: Schema.optionalKey(Schema.Struct({ parameter: Schema.String, who: Words }))
})
export type ParameterDocument = typeof ParameterDocument.Type

/** A feature as a product document writes it: its name, title, description and the parameters it is priced from. */
export const FeatureDocument = Schema.Struct({
  name: Name("feature name"),
  title: Words,
  description: Words,
  /** The parameters the feature is priced from, in the order the definition lists them. */
  parameter_refs: Schema.Array(Schema.String)
})
export type FeatureDocument = typeof FeatureDocument.Type

const ConditionValue = Schema.Union([Schema.String, Schema.Finite, Schema.Boolean, Schema.Null])

/** A comparison of one parameter's value, in the tariff's condition language (json-rules-engine's operators). */
const ParameterComparison = Schema.Union([
  Schema.Struct({
    fact: Schema.String,
    operator: Schema.Literals(MEMBERSHIP_OPERATORS),
    value: Schema.Array(ConditionValue)
  }),
  Schema.Struct({
    fact: Schema.String,
    operator: Schema.Literals(COMPARISON_OPERATORS),
    value: ConditionValue
  })
])

export type ParameterCondition =
  | typeof ParameterComparison.Type
  | { readonly all: ReadonlyArray<ParameterCondition> }
  | { readonly any: ReadonlyArray<ParameterCondition> }
  | { readonly not: ParameterCondition }

/** A condition on the request's parameters (their string values): `all`, `any`, `not` and comparisons. */
export const ParameterCondition: Schema.Codec<ParameterCondition> = Schema.Union([
  ParameterComparison,
  Schema.Struct({ all: Schema.Array(Schema.suspend((): Schema.Codec<ParameterCondition> => ParameterCondition)) }),
  Schema.Struct({ any: Schema.Array(Schema.suspend((): Schema.Codec<ParameterCondition> => ParameterCondition)) }),
  Schema.Struct({ not: Schema.suspend((): Schema.Codec<ParameterCondition> => ParameterCondition) })
]).annotate({ identifier: "ParameterCondition" })

/** The product document's JSON Schema (draft 2020-12), as `products/product.schema.json` publishes it. */
export const productDocumentJsonSchema = (): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(ProductDocument)
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    ...document.schema,
    $defs: document.definitions
  }
}

/** A coverage as the product's documents name and explain it. */
const CoverageWords = Schema.Struct({ title: Words, covers: Words })

const Lines = Schema.Array(Words)

/** The IPID's words for one variant (Commission Implementing Regulation (EU) 2017/1469). */
export const VariantTerms = Schema.Struct({
  /** The variant's name as customers read it. */
  title: Words,
  /** Who the variant is for and what kind of insurance it is. */
  kind: Words,
  not_insured: Lines,
  restrictions: Lines,
  where: Lines,
  obligations: Lines,
  /** `{monthly_surcharge_percent}` is replaced with the tariff's. */
  payment: Lines,
  start_and_end: Lines,
  cancellation: Lines
})
export type VariantTerms = typeof VariantTerms.Type

/**
 * The variants a product may have (spec §1): the engine's tariffs, documents and their paths know these two; a
 * product names which of them its cases fall into, and by which rule.
 */
export const VARIANTS = ["standard", "extended"] as const
/** A product variant: `standard` or `extended`. */
export type Variant = (typeof VARIANTS)[number]

/** A variant: the first whose `when` holds is the case's; the last has no `when` (it is the rest). */
export const VariantDocument = Schema.Struct({
  name: Schema.Literals(VARIANTS),
  when: Schema.optionalKey(ParameterCondition),
  /** The product name a quote of this variant answers with (spec §2.4). */
  quoted_product_name: Name("product name"),
  terms: VariantTerms
})
export type VariantDocument = typeof VariantDocument.Type

/** What a party is (spec §2.7), and so the options of a parameter a party role is matched with. */
export const PARTY_KINDS = ["person", "organization"] as const
/** What a party is: a `person` or an `organization`. */
export type PartyKind = (typeof PARTY_KINDS)[number]

/**
 * A party role (spec §2.7) and the parameter whose value (person or organization) every party in it must be; a
 * role a quote may give only one kind (an offer prices either) says which, and why, in the words of the violation.
 */
const PartyRole = Schema.Struct({
  role: Schema.Literals(["policy_holder", "vehicle_user", "vehicle_owner"]),
  parameter: Schema.String,
  quoted_only_as: Schema.optionalKey(Schema.Struct({ kind: Schema.Literals(PARTY_KINDS), because: Words }))
})
/** A party role a product document declares (spec §2.7), and the parameter whose value its parties must be. */
export type PartyRole = typeof PartyRole.Type

/**
 * A product's words in another language than its own (Danish): its title, its parameters' and options' titles, its
 * features', its variants' IPID terms and its coverages', each keyed by the name it translates. What a translation
 * leaves out is read in Danish (`kasko products check` warns of it); names, rules and figures are never translated.
 */
export const ProductTranslation = Schema.Struct({
  title: Schema.optionalKey(Words),
  /** Per parameter name: its title, and its options' titles by option id. */
  parameters: Schema.optionalKey(
    Schema.Record(
      Schema.String,
      Schema.Struct({
        title: Schema.optionalKey(Words),
        options: Schema.optionalKey(Schema.Record(Schema.String, Words))
      })
    )
  ),
  /** Per feature name: its title and description. */
  features: Schema.optionalKey(
    Schema.Record(
      Schema.String,
      Schema.Struct({ title: Schema.optionalKey(Words), description: Schema.optionalKey(Words) })
    )
  ),
  /** Per variant name (`standard`, `extended`): the IPID's words, whole. */
  variants: Schema.optionalKey(Schema.Record(Schema.String, VariantTerms)),
  /** Per coverage or listed charge: its title and what it covers. */
  coverages: Schema.optionalKey(Schema.Record(Schema.String, CoverageWords))
})
export type ProductTranslation = typeof ProductTranslation.Type

/** A product as a document an insurer writes (`product.json`): its parameters, features, variants, roles and words. */
export const ProductDocument = Schema.Struct({
  /** Where an editor finds this schema, to complete and check the document as it is written. */
  $schema: Schema.optionalKey(Schema.String),
  product_name: Name("product name"),
  version: Schema.String.check(Schema.isMinLength(1)),
  effective_from: DateString,
  title: Words,
  parameters: Schema.Array(ParameterDocument),
  features: Schema.Array(FeatureDocument),
  variants: Schema.Array(VariantDocument),
  /** The codes a quote's vehicle carries (spec §2.9), per option of the parameter that names them. */
  vehicle_codes: Schema.Struct({
    type: Schema.Struct({ parameter: Schema.String, codes: Schema.Record(Schema.String, Schema.String) }),
    usage: Schema.Struct({ parameter: Schema.String, codes: Schema.Record(Schema.String, Schema.String) })
  }),
  party_roles: Schema.Array(PartyRole),
  /** Every coverage and listed charge the product's tariffs name, in words. */
  coverages: Schema.Record(Schema.String, CoverageWords),
  /** The product's words in the other languages kasko answers in (`Accept-Language`): `en`, English. */
  translations: Schema.optionalKey(Schema.Struct({ en: Schema.optionalKey(ProductTranslation) }))
}).annotate({ identifier: "ProductDocument", title: "A kasko product document" })
export type ProductDocument = typeof ProductDocument.Type
/** A product document as its JSON is written, before it is decoded. */
export type ProductDocumentInput = typeof ProductDocument.Encoded
