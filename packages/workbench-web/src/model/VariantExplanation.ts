/**
 * Why a case is Standard or Extended, and what that changes in its answer — shown beside the case. The rule's
 * words come from the product's document (its variant rule, its options' titles), the variant from the engine's
 * own derivation, the differences from pricing the case as each variant with its tariff, so neither can drift
 * from the engine.
 */
import {
  Coverage,
  Pricing,
  ProductCatalogue,
  type ProductDocument,
  RatingWorksheet,
  type Tariff,
  Variant
} from "@kasko/core/actuarial"
import { Result } from "effect"
import { resolveCase } from "./CasePrice.js"
import { type CaseInput, inForceOn } from "./CaseInput.js"

const VARIANT_TITLES: Readonly<Record<Variant.Variant, string>> = { standard: "Standard", extended: "Extended" }

type Catalogue = ProductCatalogue.Catalogue

/** A value with its option's title in the product's document: `privat_person_koersel (Privat personkørsel)`. */
const valueWords = (productName: string, parameter: string, value: unknown, catalogue: Catalogue): string => {
  const definition = catalogue.definition(productName)?.parameters.find((candidate) => candidate.name === parameter)
  const title = definition?.options?.find((option) => option.id === value)?.title
  return title === undefined ? String(value) : `${String(value)} (${title})`
}

/** `vehicle_usage is privat_person_koersel (Privat personkørsel)`. */
const valueText = (productName: string, parameter: string, value: string, catalogue: Catalogue): string =>
  value === "" ? `${parameter} is not given` : `${parameter} is ${valueWords(productName, parameter, value, catalogue)}`

const listed = (parts: ReadonlyArray<string>, word = "and"): string =>
  parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} ${word} ${parts.at(-1)}`

const OPERATOR_WORDS: Readonly<Record<string, string>> = {
  equal: "is",
  notEqual: "is not",
  lessThan: "is below",
  lessThanInclusive: "is at most",
  greaterThan: "is above",
  greaterThanInclusive: "is at least",
  in: "is one of",
  notIn: "is none of"
}

/** A variant rule in words: `vehicle_usage is one of a (A), b (B) and annual_km is at most 40000`. */
const conditionText = (
  productName: string,
  condition: ProductDocument.ParameterCondition,
  catalogue: Catalogue
): string => {
  if ("all" in condition) return listed(condition.all.map((inner) => conditionText(productName, inner, catalogue)))
  if ("any" in condition)
    return listed(
      condition.any.map((inner) => conditionText(productName, inner, catalogue)),
      "or"
    )
  if ("not" in condition) return `not (${conditionText(productName, condition.not, catalogue)})`
  const values = Array.isArray(condition.value) ? condition.value : [condition.value]
  const words = values.map((value) => valueWords(productName, condition.fact, value, catalogue))
  return `${condition.fact} ${OPERATOR_WORDS[condition.operator] ?? condition.operator} ${listed(words, Array.isArray(condition.value) ? "or" : "and")}`
}

/**
 * The rule in one sentence: what makes a case of the product Standard, and that anything else makes it Extended —
 * in the words of the catalogue's document of the product (the shipped catalogue's first product unless given).
 */
export const variantRuleText = (
  productName = ProductCatalogue.PRODUCT_NAMES[0]!,
  catalogue: Catalogue = ProductCatalogue.shipped
): string => {
  const document = catalogue.document(productName)
  if (document === undefined) return `The catalogue has no product ${productName}.`
  const when = document.variants[0]?.when
  return when === undefined ? "Every case is of one variant." : variantRuleWords(productName, when, catalogue)
}

/** A product's rule for Standard in one sentence: its equalities by name, or the rule as written. */
export const variantRuleWords = (
  productName: string,
  when: ProductDocument.ParameterCondition,
  catalogue: Catalogue = ProductCatalogue.shipped
): string => {
  const equalities = Object.entries(Variant.equalitiesOf(when))
  return "all" in when && equalities.length === when.all.length
    ? `A case is Standard when ${listed(equalities.map(([parameter, value]) => valueText(productName, parameter, value, catalogue)))}; any other value of any of them makes it Extended.`
    : `A case is Standard when ${conditionText(productName, when, catalogue)}; any other case is Extended.`
}

/** What one variant makes of the case: its price and what its answer lists. */
export interface VariantAnswer {
  readonly variant: Variant.Variant
  readonly annually: number
  /** The coverages the answer lists, in tariff order (charges the tariff lists as coverages among them). */
  readonly coverages: ReadonlyArray<string>
  /** The charges the tariff lists among the coverages. */
  readonly listed_charges: ReadonlyArray<string>
  /** The product name a quote answers with. */
  readonly quoted_product_name: string
}

export interface VariantExplanation {
  readonly variant: Variant.Variant
  /** The product whose rule made the variant. */
  readonly productName: string
  /** Why: the case's parameters that make it Extended (none for a Standard case). */
  readonly because: ReadonlyArray<{ readonly parameter: string; readonly value: string }>
  /** The case priced as each variant, all else as it is; absent when the case cannot be priced. */
  readonly answers?: Readonly<Record<Variant.Variant, VariantAnswer>>
  /** The catalogue whose product's rule and words these are. */
  readonly catalogue: Catalogue
}

/**
 * The variant of the form's case, why, and its answer under either variant with the tariff that prices it — of the
 * catalogue's product (the shipped catalogue's unless given) as its version in force on the case's date has them.
 */
export const explainVariant = (
  input: CaseInput,
  tariffs: ReadonlyArray<Tariff.Tariff>,
  whole: Catalogue = ProductCatalogue.shipped
): VariantExplanation => {
  const resolved = resolveCase(input, tariffs, whole)
  const catalogue = inForceOn(whole, input.pricing_date)
  // the engine's own derivation: from the decoded parameters when the case decodes, else from the form's options
  const variant: Variant.Variant = Result.isSuccess(resolved)
    ? Variant.deriveVariant(resolved.success.request.product_name, resolved.success.request.parameters, catalogue)
    : catalogue.document(input.product_name) === undefined
      ? "standard"
      : Variant.variantOf(input.product_name, input.parameters, catalogue)
  // which parameters keep it from Standard, when the rule is a list of equalities to name them by
  const because =
    variant === "standard"
      ? []
      : Variant.extendedBecause(input.product_name, input.parameters, catalogue).map((parameter) => ({
          parameter,
          value: input.parameters[parameter] ?? ""
        }))
  if (Result.isFailure(resolved)) return { variant, because, productName: input.product_name, catalogue }
  const { request, tariff } = resolved.success
  const answerAs = (as: Variant.Variant): VariantAnswer => {
    const worksheet = RatingWorksheet.worksheetOf(Pricing.priceAsVariant(tariff, request, as))
    return {
      variant: as,
      annually: worksheet.annually,
      coverages: Coverage.coveragesOf(worksheet).map((coverage) => coverage.name),
      listed_charges: worksheet.charge_lines.flatMap((line) =>
        line.listed_as_coverage === undefined ? [] : [line.charge]
      ),
      quoted_product_name: ProductCatalogue.quotedProductName(request.product_name, as, catalogue)
    }
  }
  return {
    variant,
    because,
    productName: input.product_name,
    answers: { standard: answerAs("standard"), extended: answerAs("extended") },
    catalogue
  }
}

/** `This case is Extended: vehicle_usage is godstransport (Godstransport).` */
export const variantVerdictText = (explanation: VariantExplanation): string =>
  explanation.variant === "standard"
    ? `This case is Standard.`
    : explanation.because.length === 0
      ? `This case is Extended: the product's rule for Standard does not hold.`
      : `This case is Extended: ${listed(explanation.because.map(({ parameter, value }) => valueText(explanation.productName, parameter, value, explanation.catalogue)))}.`

/** The coverages one variant's answer lists and the other's does not. */
export const onlyIn = (answers: Readonly<Record<Variant.Variant, VariantAnswer>>, variant: Variant.Variant) => {
  const other = answers[variant === "standard" ? "extended" : "standard"]
  return answers[variant].coverages.filter((coverage) => !other.coverages.includes(coverage))
}

export const variantTitle = (variant: Variant.Variant): string => VARIANT_TITLES[variant]
