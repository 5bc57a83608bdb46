/**
 * What `explain_price` answers: a rating worksheet's lines in words — each coverage (its base, each loading, its
 * premium, its deductible or limit) and each charge — whose amounts add up to the annual total, and the rounding
 * that makes the total the price. Amounts are øre (whole numbers, so the lines sum exactly); the words give kroner.
 */
import type { ProductCatalogue } from "@kasko/core"
import { Money, type RatingWorksheet } from "@kasko/core/actuarial"
import { Schema } from "effect"

const Loading = Schema.Struct({
  loading: Schema.String.annotate({ description: "What the loading is for" }),
  percent: Schema.Int.annotate({ description: "The loading in per cent of the premium before it" })
})

const ExplanationLine = Schema.Struct({
  kind: Schema.Literals(["coverage", "charge"]),
  name: Schema.String.annotate({ description: "The coverage or charge, as the tariff names it" }),
  title: Schema.String.annotate({ description: "Its title in the product's words (Danish)" }),
  amount_ore: Schema.Int.annotate({ description: "Its part of the annual premium, in øre (1/100 krone)" }),
  loadings: Schema.Array(Loading),
  words: Schema.String.annotate({ description: "How the amount is made, in words" })
})

/** The explanation of a price: its lines, their total, and the rounding to the annual and monthly price. */
export const PriceExplanation = Schema.Struct({
  product_name: Schema.String,
  feature: Schema.String,
  variant: Schema.String.annotate({ description: "standard or extended, derived from the parameters" }),
  tariff_version: Schema.String,
  pricing_date: Schema.String,
  lines: Schema.Array(ExplanationLine),
  annual_total_ore: Schema.Int.annotate({ description: "The sum of the lines' amount_ore" }),
  annually: Schema.Int.annotate({ description: "The annual price in kroner: the total rounded half up" }),
  monthly: Schema.Int.annotate({ description: "The monthly price in kroner, paid 12 times a year" }),
  rounding: Schema.Struct({ annually: Schema.String, monthly: Schema.String })
}).annotate({ identifier: "PriceExplanation" })
export type PriceExplanation = typeof PriceExplanation.Type

const kroner = (ore: number) => `${Money.formatKroner(ore)} kr`

const titleOf = (document: ProductCatalogue.Catalogue["products"][number] | undefined, name: string) =>
  document?.coverages[name]?.title ?? name

/** The worksheet's lines in words, with the words of the product (its coverages' titles) from `catalogue`. */
export const explanationOf = (
  worksheet: RatingWorksheet.RatingWorksheet,
  catalogue: ProductCatalogue.Catalogue
): PriceExplanation => {
  const document = catalogue.on(worksheet.pricing_date).document(worksheet.product_name)
  const coverages = worksheet.coverage_lines.map((line) => {
    const loadings = line.loadings.map(({ loading, percent }) => ({ loading, percent }))
    const terms = [
      line.deductible_ore === undefined ? undefined : `deductible ${kroner(line.deductible_ore)}`,
      line.limit_ore === undefined ? undefined : `limit ${kroner(line.limit_ore)}`
    ].filter((term) => term !== undefined)
    const words = `${[
      `${titleOf(document, line.coverage)}: ${line.base_description}`,
      ...loadings.map((loading) => `+${loading.percent} % for ${loading.loading}`)
    ].join(", ")} = ${kroner(line.premium_ore)}${terms.length === 0 ? "" : ` (${terms.join(", ")})`}`
    return {
      kind: "coverage" as const,
      name: line.coverage,
      title: titleOf(document, line.coverage),
      amount_ore: line.premium_ore,
      loadings,
      words
    }
  })
  const charges = worksheet.charge_lines.map((line) => ({
    kind: "charge" as const,
    name: line.charge,
    title: titleOf(document, line.charge),
    amount_ore: line.amount_ore,
    loadings: [],
    words: `${titleOf(document, line.charge)}: ${line.description} = ${kroner(line.amount_ore)}`
  }))
  return {
    product_name: worksheet.product_name,
    feature: worksheet.facts.feature,
    variant: worksheet.facts.variant,
    tariff_version: worksheet.tariff_version,
    pricing_date: worksheet.pricing_date,
    lines: [...coverages, ...charges],
    annual_total_ore: worksheet.annual_total_ore,
    annually: worksheet.annually,
    monthly: worksheet.monthly,
    rounding: worksheet.rounding
  }
}

/** The explanation as a few sentences for the model: each line, then the total and its rounding. */
export const explanationText = (explanation: PriceExplanation): string =>
  [
    `${explanation.product_name}, ${explanation.feature} feature, ${explanation.variant} variant (tariff ${explanation.tariff_version}, priced ${explanation.pricing_date}): ${explanation.annually} kr a year or ${explanation.monthly} kr a month. The lines:`,
    ...explanation.lines.map((line) => `- ${line.words}`),
    `Total ${kroner(explanation.annual_total_ore)}: ${explanation.rounding.annually}; monthly: ${explanation.rounding.monthly}.`
  ].join("\n")
