/**
 * A policy of a product drawn from its document alone — what a generated book
 * holds of a product added as data, whose parameters kasko knows nothing of
 * but what the document says: each feature, option and number as the
 * document allows it, by rules stated in `ADDED_PRODUCT_DISTRIBUTIONS`, so
 * that every case is one the service would price. Integer draws only (see
 * SeededDraws.ts). Browser-safe.
 */
import type { ProductDocument } from "@kasko/core/actuarial"
import {
  anyOf,
  between,
  birthDateFor,
  dateOfTheYearsBefore,
  pick,
  type RandomGenerator,
  type Weighted
} from "./SeededDraws.js"

/** The distributions of a product drawn from its document, as `kasko portfolio generate --help` states them. */
export const ADDED_PRODUCT_DISTRIBUTIONS = `Products named with --product (the shipped products as they ship keep the distributions above;
any other product — one added with --products DIR — is drawn from its document):
  product         each policy one of the products named, each as likely
  feature         the product's features, each as likely
  enum            its options, each as likely (a party role's parameter quoted only as one kind: that kind)
  number          [minimum, maximum] cut where the minimum doubles (1 000–1 999, 2 000–3 999, …), the parts
                  weighted 1, 2, 3, … from either end (1 000–150 000: 5, 10, 15, 20, 20, 15, 10, 5 %), then
                  a whole number each as likely within the part
  age             a number a birth date stands for (age_of): the driver's age bands above within its range
  age or birth    both optional: the age 65 %, the birth date 20 %, neither 15 %; a required one always
  date            any other: a day of the ten years before --as-of's year
  optional        any other optional parameter: given 75 %, blank 25 %
  weight          as above`

/** The youngest driver's age, as the seed products' books draw it: bands by weight, each age as likely within. */
export const DRIVER_AGES: Weighted<readonly [number, number]> = [
  [[18, 20], 3],
  [[21, 24], 7],
  [[25, 27], 7],
  [[28, 34], 15],
  [[35, 49], 33],
  [[50, 64], 25],
  [[65, 85], 10]
]

type AgeGiven = "age" | "birthdate" | "both" | "none"
const AGE_OR_BIRTH_DATE: Weighted<AgeGiven> = [
  ["age", 65],
  ["birthdate", 20],
  ["none", 15]
]

/** Draws a parameter's value ("" for none) into the policy's values. */
type ParameterDraw = (rng: RandomGenerator, asOf: string, values: Record<string, string>) => void

type ParameterDocument = ProductDocument.ParameterDocument

/** [minimum, maximum] (no lower than 0: a number is sent as digits) cut where the minimum doubles. */
export const doublingBands = (minimum: number, maximum: number): Array<readonly [number, number]> => {
  const bands: Array<readonly [number, number]> = []
  let from = Math.max(minimum, 0)
  let upTo = Math.max(from, 1) * 2 - 1
  while (from <= maximum) {
    const to = Math.min(upTo, maximum)
    bands.push([from, to])
    from = to + 1
    upTo = upTo * 2 + 1
  }
  return bands
}

/**
 * The parts weighted 1, 2, 3, … from either end, the middle ones the most: a number's likely values lie
 * between the extremes its document allows (a van's mileage: tens of thousands of km, not 1 000 or 150 000).
 */
export const tentWeighted = <T>(parts: ReadonlyArray<T>): Weighted<T> =>
  parts.map((part, index) => [part, Math.min(index + 1, parts.length - index)] as const)

/** The driver's age bands within [minimum, maximum], by their weights; the whole range when none overlaps it. */
export const ageBandsWithin = (minimum: number, maximum: number): Weighted<readonly [number, number]> => {
  const within = DRIVER_AGES.flatMap(([[from, to], weight]) =>
    from > maximum || to < minimum ? [] : [[[Math.max(from, minimum), Math.min(to, maximum)] as const, weight] as const]
  )
  return within.length > 0 ? within : [[[minimum, maximum], 1]]
}

const rangeOf = (parameter: ParameterDocument): readonly [number, number] => [
  parameter.minimum ?? 0,
  parameter.maximum ?? (parameter.minimum ?? 0) + 100
]

/** A value drawn as the parameter's type says, never blank. */
const valueDraw = (
  parameter: ParameterDocument,
  onlyKind: string | undefined
): ((rng: RandomGenerator, asOf: string) => string) => {
  switch (parameter.type) {
    case "enum": {
      const ids = onlyKind === undefined ? (parameter.options ?? []).map((option) => option.id) : [onlyKind]
      return (rng) => anyOf(rng, ids)
    }
    case "number": {
      const parts = tentWeighted(doublingBands(...rangeOf(parameter)))
      return (rng) => {
        const [from, to] = pick(rng, parts)
        return String(between(rng, from, to))
      }
    }
    case "date":
      return dateOfTheYearsBefore
  }
}

/** An age and the birth date that stands for it: which is given, then the age, then the birth date for it. */
const ageDraw = (age: ParameterDocument, birthDate: ParameterDocument): ParameterDraw => {
  const bands = ageBandsWithin(...rangeOf(age))
  const given: AgeGiven =
    age.required && birthDate.required ? "both" : age.required ? "age" : birthDate.required ? "birthdate" : "none"
  return (rng, asOf, values) => {
    const shown = given === "none" ? pick(rng, AGE_OR_BIRTH_DATE) : given
    const [from, to] = pick(rng, bands)
    const years = between(rng, from, to)
    values[age.name] = shown === "age" || shown === "both" ? String(years) : ""
    values[birthDate.name] = shown === "birthdate" || shown === "both" ? birthDateFor(rng, years, asOf) : ""
  }
}

/** The draws of a product's parameters, in the document's order (an age and its birth date at the first of them). */
const parameterDraws = (document: ProductDocument.ProductDocument): Array<ParameterDraw> => {
  const byName = new Map(document.parameters.map((parameter) => [parameter.name, parameter]))
  const birthDateOf = new Map<string, ParameterDocument>()
  for (const parameter of document.parameters) {
    const age = parameter.type === "date" ? byName.get(parameter.age_of?.parameter ?? "") : undefined
    if (age?.type === "number" && !birthDateOf.has(age.name)) birthDateOf.set(age.name, parameter)
  }
  const ageOf = new Map([...birthDateOf].map(([age, birthDate]) => [birthDate.name, byName.get(age)!]))
  const onlyKind = new Map(
    document.party_roles.flatMap((role) =>
      role.quoted_only_as === undefined ? [] : [[role.parameter, role.quoted_only_as.kind] as const]
    )
  )
  const drawn = new Set<string>()
  return document.parameters.flatMap((parameter): Array<ParameterDraw> => {
    if (drawn.has(parameter.name)) return []
    const birthDate = birthDateOf.get(parameter.name)
    const age = ageOf.get(parameter.name)
    if (birthDate !== undefined || age !== undefined) {
      const pair = birthDate === undefined ? [age!, parameter] : [parameter, birthDate]
      for (const member of pair) drawn.add(member.name)
      return [ageDraw(pair[0]!, pair[1]!)]
    }
    const value = valueDraw(parameter, onlyKind.get(parameter.name))
    if (parameter.required)
      return [
        (rng, asOf, values) => {
          values[parameter.name] = value(rng, asOf)
        }
      ]
    return [
      (rng, asOf, values) => {
        values[parameter.name] = between(rng, 1, 4) <= 3 ? value(rng, asOf) : ""
      }
    ]
  })
}

/**
 * A function drawing a policy of the product from its document: its feature and each parameter's value (""
 * for one not given), by name.
 */
export const productPolicyDraw = (
  document: ProductDocument.ProductDocument
): ((rng: RandomGenerator, asOf: string) => Record<string, string>) => {
  const features = document.features.map((feature) => feature.name)
  const draws = parameterDraws(document)
  return (rng, asOf) => {
    const values: Record<string, string> = { feature: anyOf(rng, features) }
    for (const draw of draws) draw(rng, asOf, values)
    return values
  }
}
