/**
 * Why a case is Standard or Extended, and what that changes in its answer —
 * shown beside the case. The rule's words come from the core's
 * the product's variant rule (`Variant.firstVariantWhen`) and the catalogue, the differences from pricing the
 * case as each variant with its tariff, so neither can drift from the engine.
 */
import { Coverage, Pricing, ProductCatalogue, RatingWorksheet, type Tariff, Variant } from "@kasko/core/actuarial"
import { Result } from "effect"
import { resolveCase } from "./CasePrice.js"
import type { CaseInput } from "./CaseInput.js"

const VARIANT_TITLES: Readonly<Record<Variant.Variant, string>> = { standard: "Standard", extended: "Extended" }

/** `vehicle_usage is privat_person_koersel (Privat personkørsel)`: an option with the catalogue's title. */
const valueText = (parameter: string, value: string): string => {
  const definition = ProductCatalogue.productDefinition("insurance-car-leasing")!.parameters.find(
    (candidate) => candidate.name === parameter
  )
  const title = definition?.options?.find((option) => option.id === value)?.title
  return title === undefined ? `${parameter} is ${value || "not given"}` : `${parameter} is ${value} (${title})`
}

const listed = (parts: ReadonlyArray<string>): string =>
  parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`

/** The rule in one sentence: what makes a case Standard, and that anything else makes it Extended. */
export const variantRuleText = (productName = "insurance-car-leasing"): string =>
  `A case is Standard when ${listed(Object.entries(Variant.firstVariantWhen(productName)).map(([parameter, value]) => valueText(parameter, value)))}; any other value of any of them makes it Extended.`

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
  /** Why: the case's parameters that make it Extended (none for a Standard case). */
  readonly because: ReadonlyArray<{ readonly parameter: string; readonly value: string }>
  /** The case priced as each variant, all else as it is; absent when the case cannot be priced. */
  readonly answers?: Readonly<Record<Variant.Variant, VariantAnswer>>
}

/** The variant of the form's case, why, and its answer under either variant with the tariff that prices it. */
export const explainVariant = (input: CaseInput, tariffs: ReadonlyArray<Tariff.Tariff>): VariantExplanation => {
  const because = Variant.extendedBecause(input.product_name, input.parameters).map((parameter) => ({
    parameter,
    value: input.parameters[parameter] ?? ""
  }))
  const variant: Variant.Variant = because.length === 0 ? "standard" : "extended"
  const resolved = resolveCase(input, tariffs)
  if (Result.isFailure(resolved)) return { variant, because }
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
      quoted_product_name: ProductCatalogue.quotedProductName(request.product_name, as)
    }
  }
  return { variant, because, answers: { standard: answerAs("standard"), extended: answerAs("extended") } }
}

/** `This case is Extended: vehicle_usage is godstransport (Godstransport).` */
export const variantVerdictText = (explanation: VariantExplanation): string =>
  explanation.because.length === 0
    ? `This case is Standard.`
    : `This case is Extended: ${listed(explanation.because.map(({ parameter, value }) => valueText(parameter, value)))}.`

/** The coverages one variant's answer lists and the other's does not. */
export const onlyIn = (answers: Readonly<Record<Variant.Variant, VariantAnswer>>, variant: Variant.Variant) => {
  const other = answers[variant === "standard" ? "extended" : "standard"]
  return answers[variant].coverages.filter((coverage) => !other.coverages.includes(coverage))
}

export const variantTitle = (variant: Variant.Variant): string => VARIANT_TITLES[variant]
