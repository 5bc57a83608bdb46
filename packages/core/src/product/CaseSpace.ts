/**
 * The cases of a product that a set of conditions can tell apart, as the facts a tariff reads: every combination
 * of the telling values of the product's fact parameters — an enum's options, a number's values either side of each
 * threshold the conditions compare it with, none when a request may leave it out — with the variant the product's
 * own rule makes of it (trying each telling value of the other parameters the rule reads) and each feature. What
 * the IPID and the tariff linter read their cases from.
 * @module
 */
import type { PricingFacts } from "../pricing/PricingFacts.js"
import type { Condition, FactCondition } from "../pricing/Tariff.js"
import { factConditionsOf } from "../pricing/TariffCompiler.js"
import type { ParameterValue } from "./Parameters.js"
import type { ParameterDocument, ProductDocument } from "./ProductDocument.js"
import { variantOfCase } from "./Variant.js"

/** The numbers a condition compares a fact with (a number, a numeric text, the members of an `in` list). */
const thresholdsOf = (condition: FactCondition): Array<number> =>
  (Array.isArray(condition.value) ? condition.value : [condition.value]).flatMap((value) => {
    const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN
    return Number.isFinite(number) ? [number] : []
  })

/**
 * The values of a whole-number parameter that tell apart every case the conditions can: both ends of its range
 * and, for each number a condition compares it with, the whole numbers just below, at and just above it. Between
 * two neighbouring thresholds every comparison answers the same, so one value of each stretch is enough.
 */
const probePoints = (conditions: ReadonlyArray<FactCondition>, parameter: ParameterDocument): Array<number> => {
  const minimum = parameter.minimum ?? 0
  const maximum = parameter.maximum ?? 0
  const points = new Set([minimum, maximum])
  for (const condition of conditions) {
    if (condition.fact !== parameter.name) continue
    for (const threshold of thresholdsOf(condition))
      for (const point of [
        Math.floor(threshold) - 1,
        Math.floor(threshold),
        Math.ceil(threshold),
        Math.ceil(threshold) + 1
      ])
        if (point >= minimum && point <= maximum) points.add(point)
  }
  return [...points].sort((a, b) => a - b)
}

/** A parameter's telling values: an enum's options, a number's probe points; none as well when it may be left out. */
export const tellingValues = (
  conditions: ReadonlyArray<FactCondition>,
  parameter: ParameterDocument
): Array<ParameterValue | null> => {
  const optional = !parameter.required && parameter.default === undefined
  const values: Array<ParameterValue | null> =
    parameter.type === "enum"
      ? (parameter.options ?? []).map((option) => option.id)
      : parameter.type === "number"
        ? probePoints(conditions, parameter)
        : []
  return optional || values.length === 0 ? [null, ...values] : values
}

type Assignment = Readonly<Record<string, ParameterValue | null>>

/** Every combination of the parameters' values, the first parameter varying slowest. */
const combinations = (
  parameters: ReadonlyArray<ParameterDocument>,
  valuesOf: (parameter: ParameterDocument) => ReadonlyArray<ParameterValue | null>
): Array<Assignment> =>
  parameters.reduce<Array<Assignment>>(
    (cases, parameter) =>
      cases.flatMap((done) => valuesOf(parameter).map((value) => ({ ...done, [parameter.name]: value }))),
    [{}]
  )

/**
 * The cases of the product the conditions (a tariff's, say) tell apart, as facts, each once, in the order of its
 * fact parameters (the first varying slowest), then of its variants and features.
 */
export const casesOf = (document: ProductDocument, conditions: ReadonlyArray<FactCondition>): Array<PricingFacts> => {
  const ruleConditions = document.variants.flatMap((variant) =>
    variant.when === undefined ? [] : factConditionsOf(variant.when as Condition)
  )
  const all = [...conditions, ...ruleConditions]
  const facts = document.parameters.filter((parameter) => parameter.fact === true)
  const ruleOnly = document.parameters.filter(
    (parameter) => parameter.fact !== true && ruleConditions.some((condition) => condition.fact === parameter.name)
  )
  const others = combinations(ruleOnly, (parameter) => tellingValues(all, parameter))
  const features = document.features.map((feature) => feature.name)
  return combinations(facts, (parameter) => tellingValues(all, parameter)).flatMap((values) => {
    const variants = new Set(others.map((other) => variantOfCase(document, { ...values, ...other } as never)))
    return document.variants
      .filter((variant) => variants.has(variant.name))
      .flatMap((variant) =>
        features.map(
          (feature) =>
            ({ product_name: document.product_name, variant: variant.name, feature, ...values }) as PricingFacts
        )
      )
  })
}
