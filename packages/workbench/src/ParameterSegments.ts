/**
 * The segments of a product added as data: besides the report's own
 * dimensions (ImpactSegments.ts), its book is broken down by each parameter
 * the product's tariffs may read that the report does not already segment by —
 * an enum by its options, a number by the bands its tariffs' and its variant
 * rule's conditions cut it into (a van's annual mileage: ≤ 15 000, 15 001–40 000,
 * …), so that what a tariff change does to each rating factor shows. The seed
 * products are segmented as they always were. Browser-safe.
 */
import { ProductCatalogue, type ProductDocument, type Tariff } from "@kasko/core/actuarial"
import { NOT_GIVEN } from "./ImpactSegments.js"

/** A parameter the report also breaks the book down by: its options, or the bands of a number. */
export interface ParameterSegmentation {
  readonly parameter: string
  /** The parameter's title in its product's document. */
  readonly title: string
  /** An enum's options, in its document's order; none for a number. */
  readonly options?: ReadonlyArray<string>
  /** A number's bands: the largest value of each band but the last (which has no upper end), ascending. */
  readonly band_ends?: ReadonlyArray<number>
}

/** The facts the report's own dimensions read: never segmented again as a parameter. */
const SEGMENTED_ALREADY = new Set([
  "product_name",
  "variant",
  "feature",
  "vehicle_type",
  "vehicle_price",
  "youngest_user_age"
])

type Condition = Tariff.Condition | ProductDocument.ParameterCondition

const comparisonsOf = (condition: Condition): Array<{ fact: string; operator: string; value: unknown }> => {
  if ("all" in condition) return condition.all.flatMap(comparisonsOf)
  if ("any" in condition) return condition.any.flatMap(comparisonsOf)
  if ("not" in condition) return comparisonsOf(condition.not)
  return [condition]
}

/** Where a comparison with a whole number cuts the numbers: the largest value of the band below the cut. */
const endsOf = (operator: string, value: unknown): Array<number> => {
  const values = Array.isArray(value) ? value : [value]
  return values.flatMap((entry): Array<number> => {
    if (typeof entry !== "number" || !Number.isInteger(entry)) return []
    switch (operator) {
      case "lessThanInclusive":
      case "greaterThan":
        return [entry]
      case "lessThan":
      case "greaterThanInclusive":
        return [entry - 1]
      default:
        // equal, notEqual, in, notIn: the value is a band of its own
        return [entry - 1, entry]
    }
  })
}

/** The band ends of a number parameter: where the conditions given cut it, within its minimum and maximum. */
const bandEndsOf = (
  parameter: ProductDocument.ParameterDocument,
  conditions: ReadonlyArray<Condition>
): Array<number> => {
  const minimum = parameter.minimum ?? 0
  const maximum = parameter.maximum ?? Number.MAX_SAFE_INTEGER
  const ends = conditions
    .flatMap(comparisonsOf)
    .filter((comparison) => comparison.fact === parameter.name)
    .flatMap((comparison) => endsOf(comparison.operator, comparison.value))
    .filter((end) => end >= minimum && end < maximum)
  return [...new Set(ends)].sort((a, b) => a - b)
}

/**
 * What the report breaks a book of these products down by besides its own dimensions: each fact parameter of a
 * product the catalogue does not ship as it is (an enum by its options; a number by where the tariffs and its
 * variant rule cut it, when they do), once however many products have it.
 */
export const parameterSegmentationsOf = (
  products: ReadonlyArray<{ readonly product_name: string; readonly old: Tariff.Tariff; readonly new: Tariff.Tariff }>,
  catalogue: ProductCatalogue.Catalogue
): Array<ParameterSegmentation> => {
  const segmentations = new Map<string, ParameterSegmentation>()
  for (const product of products) {
    const document = catalogue.document(product.product_name)
    if (document === undefined || document === ProductCatalogue.shipped.document(product.product_name)) continue
    const conditions: Array<Condition> = [
      ...[product.old, product.new].flatMap((tariff) => tariff.rules.map((rule) => rule.conditions)),
      ...document.variants.flatMap((variant) => (variant.when === undefined ? [] : [variant.when]))
    ]
    for (const parameter of document.parameters) {
      if (parameter.fact !== true || SEGMENTED_ALREADY.has(parameter.name)) continue
      const known = segmentations.get(parameter.name)
      if (parameter.type === "enum") {
        const options = (parameter.options ?? []).map((option) => option.id)
        segmentations.set(parameter.name, {
          parameter: parameter.name,
          title: known?.title ?? parameter.title,
          options: [...new Set([...(known?.options ?? []), ...options])]
        })
      } else if (parameter.type === "number") {
        const ends = [...new Set([...(known?.band_ends ?? []), ...bandEndsOf(parameter, conditions)])].sort(
          (a, b) => a - b
        )
        if (ends.length > 0)
          segmentations.set(parameter.name, {
            parameter: parameter.name,
            title: known?.title ?? parameter.title,
            band_ends: ends
          })
      }
    }
  }
  return [...segmentations.values()]
}

/** A whole number with its thousands apart, as the report's bands write them: 15 001. */
const grouped = (value: number): string => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, " ")

/** The labels of a number's bands, in order: ≤ 15 000, 15 001–40 000, …, > 60 000. */
export const bandLabelsOf = (ends: ReadonlyArray<number>): Array<string> => [
  ...ends.map((end, index) => (index === 0 ? `≤ ${grouped(end)}` : `${grouped(ends[index - 1]! + 1)}–${grouped(end)}`)),
  `> ${grouped(ends.at(-1)!)}`
]

// each segmentation's band labels, made once (a worker's copy of it once in that worker): every case reads them
const labels = new WeakMap<ParameterSegmentation, ReadonlyArray<string>>()

/** The segment a case's fact falls in: its option, or its band; "not given" without a value. */
export const parameterSegmentOf = (segmentation: ParameterSegmentation, value: unknown): string => {
  if (value === null || value === undefined) return NOT_GIVEN
  const ends = segmentation.band_ends
  if (ends === undefined || typeof value !== "number") return String(value)
  let bands = labels.get(segmentation)
  if (bands === undefined) {
    bands = bandLabelsOf(ends)
    labels.set(segmentation, bands)
  }
  const index = ends.findIndex((end) => value <= end)
  return bands[index === -1 ? ends.length : index]!
}

/** The order a parameter's segments are listed in: its options or bands, then "not given", then any other. */
export const parameterSegmentRank = (segmentation: ParameterSegmentation, segment: string): number => {
  const order = [
    ...(segmentation.band_ends === undefined ? (segmentation.options ?? []) : bandLabelsOf(segmentation.band_ends)),
    NOT_GIVEN
  ]
  const index = order.indexOf(segment)
  return index === -1 ? order.length : index
}
