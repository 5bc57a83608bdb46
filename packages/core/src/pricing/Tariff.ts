/**
 * A tariff: a versioned JSON document of json-rules-engine rules whose events
 * are typed pricing instructions, plus effective-dated charges (DESIGN §3,
 * docs/tariff-charges.md). Decoded with Schema when loaded, never trusted raw.
 * @module
 */
import { Result, Schema, SchemaIssue, SchemaParser, SchemaTransformation } from "effect"
import { isCalendarDate, type CalendarDate } from "../input/CalendarDate.js"
import {
  type Catalogue,
  factNamesOf,
  perCatalogue,
  SHIPPED_PRODUCTS,
  shipped,
  type ProductName,
  versionForTariff
} from "../product/ProductCatalogue.js"
import { oreOfKroner } from "./Money.js"
import { COMPARISON_OPERATORS, MEMBERSHIP_OPERATORS } from "./Operators.js"

/**
 * The facts the shipped products' rules may read (an editor offers these): which product, variant and feature,
 * and the parameters the products' documents mark as facts. A product of an insurer's own may have others: its
 * tariff's plan refuses a fact its product does not have (`ProductCatalogue.factNamesOf`).
 */
export const FACT_NAMES: ReadonlyArray<string> = [...new Set(SHIPPED_PRODUCTS.flatMap(factNamesOf))]
/** The name of a fact a tariff's conditions read: one of a product's fact parameters, or product_name, variant, feature. */
export type FactName = string

/**
 * A fact's former name: `youngest_user_age` was `youngest_driver_age` until it took the name of the parameter it
 * is made from (issue 43), and tariffs stored or edited before still say so. Marked deprecated, so that an editor
 * offers only the current name.
 */
const FormerFactName = Schema.Literal("youngest_driver_age").annotate({
  description: "the former name of youngest_user_age, read as it",
  deprecated: true
})
type FormerFactName = typeof FormerFactName.Type

/** Each former name of a fact, with the fact it is read as: a tariff that says it decodes to the same tariff. */
export const FORMER_FACT_NAMES: Readonly<Record<FormerFactName, FactName>> = {
  youngest_driver_age: "youngest_user_age"
}

/** A condition's fact: its current name, or a former one decoded to it (and encoded as the current one). */
const FactNameField = Schema.Union([Schema.Literals(FACT_NAMES), FormerFactName, Schema.String]).pipe(
  Schema.decodeTo(
    Schema.String,
    SchemaTransformation.transform({
      decode: (name: FactName | FormerFactName): FactName =>
        Object.hasOwn(FORMER_FACT_NAMES, name) ? FORMER_FACT_NAMES[name as FormerFactName] : name,
      encode: (name: FactName): FactName | FormerFactName => name
    })
  )
)

export { OPERATORS } from "./Operators.js"

const DateString = Schema.String.check(
  Schema.makeFilter((value: string) => isCalendarDate(value) || "must be a date YYYY-MM-DD")
)

/** Kroner in the document (readable for an actuary), øre once decoded. */
const Kroner = Schema.Finite.check(
  Schema.makeFilter(
    (kroner: number) =>
      (kroner >= 0 && Math.abs(kroner * 100 - Math.round(kroner * 100)) < 1e-6) ||
      "must be a non-negative amount of kroner with at most two decimals"
  )
).pipe(
  Schema.decodeTo(
    Schema.Int,
    SchemaTransformation.transform({ decode: oreOfKroner, encode: (ore: number) => ore / 100 })
  )
)

const BasisPoints = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100_000 }))

const FactValue = Schema.Union([Schema.String, Schema.Number, Schema.Boolean, Schema.Null])

/** One test of a rule's condition: a fact, an operator and the value it is compared with. */
// json-rules-engine throws on `in`/`notIn` with a value that is not a list (and tests substrings on a string): lists only
export const FactCondition = Schema.Union([
  Schema.Struct({
    fact: FactNameField,
    operator: Schema.Literals(MEMBERSHIP_OPERATORS),
    value: Schema.Array(FactValue)
  }),
  Schema.Struct({
    fact: FactNameField,
    operator: Schema.Literals(COMPARISON_OPERATORS),
    value: FactValue
  })
])
export type FactCondition = typeof FactCondition.Type

/** A rule's condition: a fact's test, or `all`, `any` or `not` of conditions, nested as json-rules-engine nests them. */
export type Condition =
  | FactCondition
  | { readonly all: ReadonlyArray<Condition> }
  | { readonly any: ReadonlyArray<Condition> }
  | { readonly not: Condition }

/** A condition as a tariff document writes it: its facts may go by a former name. */
export type ConditionDocument =
  | typeof FactCondition.Encoded
  | { readonly all: ReadonlyArray<ConditionDocument> }
  | { readonly any: ReadonlyArray<ConditionDocument> }
  | { readonly not: ConditionDocument }

export const Condition: Schema.Codec<Condition, ConditionDocument> = Schema.Union([
  FactCondition,
  Schema.Struct({ all: Schema.Array(Schema.suspend((): Schema.Codec<Condition, ConditionDocument> => Condition)) }),
  Schema.Struct({ any: Schema.Array(Schema.suspend((): Schema.Codec<Condition, ConditionDocument> => Condition)) }),
  Schema.Struct({ not: Schema.suspend((): Schema.Codec<Condition, ConditionDocument> => Condition) })
])

/** A premium band: `rate_basis_points` of the part of the vehicle price up to `up_to` kroner (null: no upper end). */
const PremiumBand = Schema.Struct({
  up_to: Schema.NullOr(Schema.Int.check(Schema.isGreaterThan(0))),
  rate_basis_points: BasisPoints
})

/** How a coverage's base premium is set: a fixed amount, or a share of the vehicle's price, band by band. */
export const Premium = Schema.Union([
  Schema.Struct({ type: Schema.Literal("fixed"), amount: Kroner }),
  Schema.Struct({
    type: Schema.Literal("vehicle_price_bands"),
    bands: Schema.NonEmptyArray(PremiumBand).check(
      Schema.makeFilter(
        (bands: ReadonlyArray<typeof PremiumBand.Type>) =>
          bandsAreOrdered(bands) || "bands must rise strictly and only the last may have up_to null"
      )
    )
  })
])
export type Premium = typeof Premium.Type

const bandsAreOrdered = (bands: ReadonlyArray<typeof PremiumBand.Type>): boolean =>
  bands.every((band, index) => {
    if (band.up_to === null) return index === bands.length - 1
    const previous = index === 0 ? 0 : bands[index - 1]!.up_to
    return previous !== null && band.up_to > previous
  })

/** The instructions a rule's event may carry. */
export const Instruction = Schema.Union([
  Schema.Struct({
    type: Schema.Literal("add_coverage"),
    params: Schema.Struct({ coverage: Schema.NonEmptyString, id: Schema.NonEmptyString, premium: Premium })
  }),
  Schema.Struct({
    type: Schema.Literal("apply_loading"),
    params: Schema.Struct({
      loading: Schema.NonEmptyString,
      coverages: Schema.NonEmptyArray(Schema.NonEmptyString),
      percent: Schema.Int.check(Schema.isGreaterThanOrEqualTo(-100))
    })
  }),
  Schema.Struct({
    type: Schema.Literal("set_deductible"),
    params: Schema.Struct({ coverage: Schema.NonEmptyString, amount: Kroner })
  }),
  Schema.Struct({
    type: Schema.Literal("set_limit"),
    params: Schema.Struct({ coverage: Schema.NonEmptyString, amount: Kroner })
  }),
  Schema.Struct({
    type: Schema.Literal("list_charge_as_coverage"),
    params: Schema.Struct({ charge: Schema.NonEmptyString, id: Schema.NonEmptyString })
  })
])
export type Instruction = typeof Instruction.Type
/** The kind of an instruction a rule's event gives (`add_coverage`, `apply_loading`, `set_deductible` …). */
export type InstructionType = Instruction["type"]

const Rule = Schema.Struct({
  name: Schema.NonEmptyString,
  priority: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThan(0))),
  conditions: Schema.Union([
    Schema.Struct({ all: Schema.Array(Condition) }),
    Schema.Struct({ any: Schema.Array(Condition) }),
    Schema.Struct({ not: Condition })
  ]),
  event: Instruction
})

/** What a charge is levied on. */
const ChargeBase = Schema.Union([
  Schema.Struct({ type: Schema.Literal("coverages"), coverages: Schema.NonEmptyArray(Schema.NonEmptyString) }),
  Schema.Struct({ type: Schema.Literal("all_coverages_except"), coverages: Schema.Array(Schema.NonEmptyString) })
])

/** A statutory charge, effective from a date: a rate of a base, or a flat amount per policy and year. */
export const Charge = Schema.Union([
  Schema.Struct({
    charge: Schema.NonEmptyString,
    effective_from: DateString,
    type: Schema.Literal("rate"),
    rate_basis_points: BasisPoints,
    base: ChargeBase,
    shown_in_price_details: Schema.Boolean
  }),
  Schema.Struct({
    charge: Schema.NonEmptyString,
    effective_from: DateString,
    type: Schema.Literal("flat"),
    amount: Kroner,
    shown_in_price_details: Schema.Boolean
  })
])
export type Charge = typeof Charge.Type

/** Every fact condition inside a condition tree. */
export const factConditionsOf = (condition: Condition): Array<FactCondition> => {
  if ("all" in condition) return condition.all.flatMap(factConditionsOf)
  if ("any" in condition) return condition.any.flatMap(factConditionsOf)
  if ("not" in condition) return factConditionsOf(condition.not)
  return [condition]
}

/**
 * The first fact a rule reads that the tariff's product does not have, said in words; undefined when there is none.
 * The product as the version in force when the tariff takes effect has it (its first version, for a tariff taking
 * effect before it): that the tariff fits the later versions it prices with is checked when its book is planned.
 */
const factsUnknownToProduct = (
  tariff: {
    readonly product_name: string
    readonly effective_from?: string
    readonly rules: ReadonlyArray<{ readonly name: string; readonly conditions: Condition }>
  },
  catalogue: Catalogue
): string | undefined => {
  const product =
    tariff.effective_from === undefined
      ? catalogue.versionsOf(tariff.product_name)[0]
      : versionForTariff(catalogue, tariff.product_name, tariff.effective_from)
  if (product === undefined) return undefined
  const known = new Set(factNamesOf(product))
  for (const rule of tariff.rules)
    for (const { fact } of factConditionsOf(rule.conditions))
      if (!known.has(fact))
        return `rule "${rule.name}" reads fact "${fact}", which ${tariff.product_name} does not have (its facts: ${[...known].join(", ")})`
  return undefined
}

const TARIFF_FIELDS = {
  version: Schema.NonEmptyString,
  effective_from: DateString,
  currency: Schema.Literal("DKK"),
  monthly_surcharge_percent: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 })),
  rules: Schema.Array(Rule).check(
    Schema.makeFilter(
      (rules: ReadonlyArray<typeof Rule.Type>) =>
        new Set(rules.map((rule) => rule.name)).size === rules.length || "rule names must be unique"
    )
  ),
  charges: Schema.Array(Charge)
}

const tariffSchema = (catalogue: Catalogue) =>
  Schema.Struct({ product_name: Schema.Literals(catalogue.productNames), ...TARIFF_FIELDS }).check(
    Schema.makeFilter((tariff) => factsUnknownToProduct(tariff, catalogue) ?? true)
  )

/** A tariff version of one product of a catalogue, reading only facts that product has. */
export const tariffSchemaOf = perCatalogue(tariffSchema)

/** A tariff version of one shipped product. */
export const Tariff = tariffSchemaOf(shipped)
export type Tariff = typeof Tariff.Type

/**
 * A tariff version of a product the catalogue need not know yet: what a product folder's check decodes (it
 * compares the product's name with the folder's document itself).
 */
export const AnyProductTariff = Schema.Struct({ product_name: Schema.NonEmptyString, ...TARIFF_FIELDS })
/** A tariff version as its JSON document is written, before it is decoded (`decodeTariff`). */
export type TariffDocument = typeof Tariff.Encoded

const formatProblems = SchemaIssue.makeFormatterDefault()
const formatFirstProblem = SchemaIssue.makeFormatterStandardSchemaV1()

const DECODING = { onExcessProperty: "error", reportInput: true } as const

// every problem, each naming the value it found
const decodersOf = perCatalogue((catalogue) => ({
  all: SchemaParser.decodeUnknownResult(tariffSchemaOf(catalogue), { ...DECODING, errors: "all" }),
  first: SchemaParser.decodeUnknownResult(tariffSchemaOf(catalogue), { ...DECODING, errors: "first" })
}))

// a value found can be a whole file's worth of JSON (another document's object, say): a line holds its start
const PROBLEM_LENGTH = 160

const pathText = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((key, index) => (typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`)).join("")

// the catalogue each tariff was decoded against, other than the shipped one: its plan reads its product's facts
const DECODED_WITH = new WeakMap<Tariff, Catalogue>()

const remembered = (catalogue: Catalogue) => (tariff: Tariff) => {
  if (catalogue !== shipped) DECODED_WITH.set(tariff, catalogue)
  return tariff
}

/** The catalogue a decoded tariff was decoded against: the one whose product its plan prices. */
export const catalogueOfTariff = (tariff: Tariff): Catalogue => DECODED_WITH.get(tariff) ?? shipped

/** Decodes a tariff document of a catalogue's product (a shipped one unless given), or explains every problem in one message. */
export const decodeTariff = (document: unknown, catalogue: Catalogue = shipped): Result.Result<Tariff, string> =>
  Result.mapBoth(decodersOf(catalogue).all(document), {
    onSuccess: remembered(catalogue),
    onFailure: (issue) => {
      // the product's facts are checked once the whole document decodes: a document with other problems is read as
      // it stands for a fact its product lacks, so that every problem is said at once
      const unknownFact =
        isRecord(document) && Array.isArray(document["rules"]) ? rawUnknownFact(document, catalogue) : undefined
      return unknownFact === undefined ? formatProblems(issue) : `${formatProblems(issue)}\n${unknownFact}`
    }
  })

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

const rawConditionFacts = (condition: unknown): Array<string> => {
  if (!isRecord(condition)) return []
  for (const key of ["all", "any"])
    if (Array.isArray(condition[key])) return (condition[key] as Array<unknown>).flatMap(rawConditionFacts)
  if ("not" in condition) return rawConditionFacts(condition["not"])
  return typeof condition["fact"] === "string" ? [condition["fact"]] : []
}

const rawUnknownFact = (document: Record<string, unknown>, catalogue: Catalogue): string | undefined =>
  typeof document["product_name"] === "string"
    ? factsUnknownToProduct(
        {
          product_name: document["product_name"],
          ...(typeof document["effective_from"] === "string" && isCalendarDate(document["effective_from"])
            ? { effective_from: document["effective_from"] }
            : {}),
          rules: (document["rules"] as Array<unknown>).flatMap((rule) =>
            isRecord(rule) && typeof rule["name"] === "string"
              ? [
                  {
                    name: rule["name"],
                    conditions: {
                      all: rawConditionFacts(rule["conditions"]).map((fact) => ({
                        fact: Object.hasOwn(FORMER_FACT_NAMES, fact) ? FORMER_FACT_NAMES[fact as FormerFactName] : fact,
                        operator: "equal" as const,
                        value: null
                      }))
                    }
                  }
                ]
              : []
          )
        },
        catalogue
      )
    : undefined

/**
 * Decodes a tariff document, or says its first problem in one line of bounded
 * length, where it is: for a command naming a file that is not a tariff
 * (`kasko tariff check` lists every problem).
 */
export const decodeTariffBriefly = (document: unknown, catalogue: Catalogue = shipped): Result.Result<Tariff, string> =>
  Result.mapBoth(decodersOf(catalogue).first(document), {
    onSuccess: remembered(catalogue),
    onFailure: (issue) => {
      const [first] = formatFirstProblem(issue).issues
      const problem = first === undefined ? "not a tariff" : first.message
      const line = problem.replace(/\s+/g, " ")
      const bounded = line.length > PROBLEM_LENGTH ? `${line.slice(0, PROBLEM_LENGTH - 1)}…` : line
      const path = (first?.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment))
      return path.length === 0 ? bounded : `${bounded} at ${pathText(path)}`
    }
  })

/** The version of a product's tariff in force on a date: the latest `effective_from` not after it. */
export const tariffInForce = (
  tariffs: ReadonlyArray<Tariff>,
  productName: ProductName,
  pricingDate: CalendarDate
): Tariff | undefined => {
  let latest: Tariff | undefined
  for (const tariff of tariffs) {
    if (tariff.product_name !== productName || tariff.effective_from > pricingDate) continue
    if (latest === undefined || tariff.effective_from > latest.effective_from) latest = tariff
  }
  return latest
}

const chargesByDate = new WeakMap<Tariff, { date: CalendarDate; charges: ReadonlyArray<Charge> }>()

/** The charges in force on a date: per charge, the row with the latest `effective_from` not after it (the last date's answer is kept). */
export const chargesInForce = (tariff: Tariff, pricingDate: CalendarDate): ReadonlyArray<Charge> => {
  const cached = chargesByDate.get(tariff)
  if (cached !== undefined && cached.date === pricingDate) return cached.charges
  const charges = findChargesInForce(tariff, pricingDate)
  chargesByDate.set(tariff, { date: pricingDate, charges })
  return charges
}

const findChargesInForce = (tariff: Tariff, pricingDate: CalendarDate): Array<Charge> => {
  const latest = new Map<string, Charge>()
  for (const charge of tariff.charges) {
    if (charge.effective_from > pricingDate) continue
    const current = latest.get(charge.charge)
    if (current === undefined || charge.effective_from > current.effective_from) latest.set(charge.charge, charge)
  }
  return [...latest.values()]
}
