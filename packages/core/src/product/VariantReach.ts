/**
 * Which variants a product's cases can fall into: its variant rule tried on every combination of the values the
 * rule can tell apart — each option of an enum parameter it reads, a number's range ends and each constant the
 * rule compares it with and their neighbours, and no value for a parameter a request may leave out. A variant no
 * case falls into is named, with why. A rule reading a date parameter is not tried (dates compare as text and as
 * numbers at once in the condition language, and have no options to run through).
 */
import type { Condition } from "../pricing/Tariff.js"
import { compileOverFacts, factConditionsOf } from "../pricing/TariffCompiler.js"
import { tellingValues } from "./CaseSpace.js"
import type { ParameterValue } from "./Parameters.js"
import type { ParameterCondition, ParameterDocument, VariantDocument } from "./ProductDocument.js"

/** More combinations than this are not tried: the rule is then not judged. */
const MOST_COMBINATIONS = 100_000

// a variant rule is written in the tariff's condition language: the tariff compiler's walk finds its comparisons
const comparisonsOf = (condition: ParameterCondition) => factConditionsOf(condition as Condition)

const factsOf = (condition: ParameterCondition): Array<string> =>
  comparisonsOf(condition).map((comparison) => comparison.fact)

/** The values a condition compares a parameter with. */
export const valuesComparedWith = (condition: ParameterCondition, fact: string): Array<unknown> =>
  comparisonsOf(condition)
    .filter((comparison) => comparison.fact === fact)
    .flatMap((comparison) => (Array.isArray(comparison.value) ? comparison.value : [comparison.value]))

/**
 * The values of a parameter worth trying, as the engine decodes them (an option's id, a number as a number), or
 * undefined when it cannot be tried.
 */
const samplesOf = (
  parameter: ParameterDocument,
  rules: ReadonlyArray<ParameterCondition>
): Array<ParameterValue | undefined> | undefined => {
  // a date, an enum without options or a number without its range (refused already) is not tried
  if (parameter.type === "date") return undefined
  if (parameter.type === "enum" && (parameter.options ?? []).length === 0) return undefined
  if (parameter.type === "number" && (parameter.minimum === undefined || parameter.maximum === undefined))
    return undefined
  return tellingValues(rules.flatMap(comparisonsOf), parameter).map((value) => value ?? undefined)
}

/** Every combination of the samples, as fact tuples in the samples' order. */
const combinations = (
  samples: ReadonlyArray<ReadonlyArray<ParameterValue | undefined>>
): Array<Array<ParameterValue | undefined>> =>
  samples.reduce<Array<Array<ParameterValue | undefined>>>(
    (combined, values) => combined.flatMap((facts) => values.map((value) => [...facts, value])),
    [[]]
  )

/**
 * The variants no case falls into, each with its path and why; none when the rule cannot be tried (an unknown
 * parameter, a date, too many combinations). The last variant takes the cases no `when` before it holds for.
 */
export const variantReach = (
  variants: ReadonlyArray<VariantDocument>,
  parameters: ReadonlyMap<string, ParameterDocument>
): Array<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }> => {
  const rules = variants.slice(0, -1).map((variant) => variant.when ?? { all: [] })
  const read = [...new Set(rules.flatMap(factsOf))]
  const samples = read.map((name) => {
    const parameter = parameters.get(name)
    return parameter === undefined ? undefined : samplesOf(parameter, rules)
  })
  if (samples.some((values) => values === undefined || values.length === 0)) return []
  const tried = samples as Array<Array<ParameterValue | undefined>>
  if (tried.reduce((count, values) => count * values.length, 1) > MOST_COMBINATIONS) return []
  let predicates: Array<(facts: ReadonlyArray<unknown>) => boolean>
  try {
    predicates = rules.map((rule, index) => compileOverFacts(rule, read, `variants[${index}].when`))
  } catch {
    return []
  }
  const holds = rules.map(() => false)
  const reached = variants.map(() => false)
  for (const facts of combinations(tried)) {
    let first = -1
    predicates.forEach((predicate, index) => {
      if (!predicate(facts)) return
      holds[index] = true
      if (first === -1) first = index
    })
    reached[first === -1 ? variants.length - 1 : first] = true
  }
  const readWords = read.length === 0 ? "it reads no parameter" : `every value of ${read.join(", ")} tried`
  return variants.flatMap((variant, index) => {
    if (reached[index]) return []
    if (index === variants.length - 1)
      return [
        {
          path: ["variants", index],
          message: `no case falls into ${variant.name}: a rule before it holds for every case (${readWords})`
        }
      ]
    const earlier = holds[index] ? "every case it holds for falls into a variant before it" : "no case satisfies it"
    return [{ path: ["variants", index, "when"], message: `${earlier} (${readWords})` }]
  })
}
