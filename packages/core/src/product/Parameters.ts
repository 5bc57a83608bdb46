/**
 * Product parameters: the string-valued map a client sends (spec §2.2) decoded
 * into typed values, with the rules of DESIGN §2. Rules that need the pricing
 * date (a birth date that stands for an age) live in `checkBirthDates`.
 * @module
 */
import { Schema, SchemaTransformation } from "effect"
import { ageOn, isCalendarDate, type CalendarDate } from "../input/CalendarDate.js"
import type { Violation } from "../Errors.js"
import { OneOf, optionalString, optionalStringWithDefault, RequestObject, rule } from "../input/Fields.js"
import type { ParameterDocument } from "./ProductDocument.js"

const JsonString = Schema.String.annotate({ message: "must be a JSON string" })

const DIGITS = /^\d{1,12}$/

/** The number a string of digits within [min, max] stands for, or undefined. */
const digitsWithin = (value: unknown, min: number, max: number): number | undefined => {
  if (typeof value !== "string" || !DIGITS.test(value)) return undefined
  const number = Number(value)
  return number >= min && number <= max ? number : undefined
}

const digitsBetween = (min: number, max: number) =>
  JsonString.check(
    rule((value: string) => DIGITS.test(value) || "must be a string of digits", {
      description: `digits of a number from ${min} to ${max}`,
      toJsonSchema: () => ({ pattern: "^[0-9]{1,12}$", maxLength: 12 })
    })
  ).pipe(
    Schema.decodeTo(
      Schema.Number.check(
        rule((value: number) => (value >= min && value <= max) || `must be between ${min} and ${max}`)
      ),
      SchemaTransformation.transform({
        decode: (digits: string) => Number(digits),
        encode: (value: number) => String(value)
      })
    )
  )

const BirthDate = JsonString.check(
  rule((value: string) => isCalendarDate(value) || "must be a real date in the form YYYY-MM-DD", {
    toJsonSchema: () => ({ format: "date", maxLength: 10 })
  })
)

// The longest value an optional parameter may be sent as; a longer one is refused even when blank.
const DIGITS_MAX_LENGTH = 12
const DATE_MAX_LENGTH = 10
const enumMaxLength = (ids: ReadonlyArray<string>) => Math.max(12, ...ids.map((id) => id.length))

/** A parameter's value as decoded: an option's id or a date as sent, a number as a number. */
export type ParameterValue = string | number

/** A case's parameters, decoded: every parameter given or defaulted, by name. */
export type ProductParameters = Readonly<Record<string, ParameterValue>>

/** The request form of a case's parameters: every value a string. */
export type ProductParametersInput = Readonly<Record<string, string>>

/** The Schema of one parameter, from its definition in the product's document. */
const parameterSchema = (parameter: ParameterDocument): Schema.Top => {
  const description = parameter.description === undefined ? {} : { description: parameter.description }
  switch (parameter.type) {
    case "enum": {
      const ids = (parameter.options ?? []).map((option) => option.id)
      const shape = { maxLength: enumMaxLength(ids), enum: ids, ...description }
      if (parameter.default !== undefined) return optionalStringWithDefault(OneOf(ids), shape, parameter.default)
      return parameter.required ? OneOf(ids) : optionalString(OneOf(ids), shape)
    }
    case "number": {
      const digits = digitsBetween(parameter.minimum ?? 0, parameter.maximum ?? Number.MAX_SAFE_INTEGER)
      const shape = { maxLength: DIGITS_MAX_LENGTH, pattern: "^[0-9]{1,12}$", ...description }
      if (parameter.default !== undefined) return optionalStringWithDefault(digits, shape, parameter.default)
      return parameter.required ? digits : optionalString(digits, shape)
    }
    case "date": {
      const shape = { maxLength: DATE_MAX_LENGTH, pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", ...description }
      if (parameter.default !== undefined) return optionalStringWithDefault(BirthDate, shape, parameter.default)
      return parameter.required ? BirthDate : optionalString(BirthDate, shape)
    }
  }
}

/** The Schema of a product's parameters, decoded from their JSON-string form: one field per parameter, in order. */
export const parametersSchemaOf = (
  parameters: ReadonlyArray<ParameterDocument>
): Schema.Codec<ProductParameters, ProductParametersInput> =>
  RequestObject(
    Object.fromEntries(parameters.map((parameter) => [parameter.name, parameterSchema(parameter)]))
  ) as unknown as Schema.Codec<ProductParameters, ProductParametersInput>

/** A birth date parameter and the age parameter it stands for (`age_of` in the product's document). */
interface AgeRule {
  readonly birthDate: string
  readonly age: string
  readonly who: string
  readonly minimum: number
  readonly maximum: number
}

// each product's rules, read once from its parameters (every request of the product checks them)
const AGE_RULES = new WeakMap<ReadonlyArray<ParameterDocument>, ReadonlyArray<AgeRule>>()

const ageRulesOf = (parameters: ReadonlyArray<ParameterDocument>): ReadonlyArray<AgeRule> => {
  let rules = AGE_RULES.get(parameters)
  if (rules === undefined) {
    rules = readAgeRules(parameters)
    AGE_RULES.set(parameters, rules)
  }
  return rules
}

const readAgeRules = (parameters: ReadonlyArray<ParameterDocument>): Array<AgeRule> =>
  parameters.flatMap((parameter) => {
    if (parameter.age_of === undefined) return []
    const age = parameters.find((candidate) => candidate.name === parameter.age_of!.parameter)
    if (age === undefined) return []
    return [
      {
        birthDate: parameter.name,
        age: age.name,
        who: parameter.age_of.who,
        minimum: age.minimum ?? 0,
        maximum: age.maximum ?? Number.MAX_SAFE_INTEGER
      }
    ]
  })

/**
 * The rules that need the pricing date, for each birth date that stands for an age (the seed products' youngest
 * driver): the birth date must make the person as old as the age's range allows on it, and when both are given
 * they must agree. Reads the raw map so it can report alongside every other violation of the request; fields that
 * are themselves invalid are skipped (their own violation is reported by the Schema).
 */
export const checkBirthDates = (
  parameters: ReadonlyArray<ParameterDocument>,
  rawParameters: unknown,
  pricingDate: CalendarDate,
  fieldPrefix: string
): Array<Violation> => {
  const violations: Array<Violation> = []
  if (typeof rawParameters !== "object" || rawParameters === null) return violations
  const raw = rawParameters as Record<string, unknown>
  // every request of the product takes this loop: plain indexing, no callbacks
  const rules = ageRulesOf(parameters)
  for (let index = 0; index < rules.length; index++) {
    const { birthDate: name, age, who, minimum, maximum } = rules[index]!
    const birthDate = raw[name]
    if (typeof birthDate !== "string" || !isCalendarDate(birthDate)) continue
    const field = `${fieldPrefix}.${name}`
    const ageFromBirthDate = ageOn(birthDate, pricingDate)
    if (ageFromBirthDate < minimum || ageFromBirthDate > maximum) {
      violations.push({ field, message: `must make ${who} ${minimum}–${maximum} years old on ${pricingDate}` })
      continue
    }
    const statedAge = digitsWithin(raw[age], minimum, maximum)
    if (statedAge !== undefined && statedAge !== ageFromBirthDate)
      violations.push({
        field,
        message: `disagrees with ${age}: the birth date gives age ${ageFromBirthDate} on ${pricingDate}`
      })
  }
  return violations
}

/**
 * Each fact parameter of a product with how its value is read from decoded parameters: as given, or — for an age
 * a birth date stands for — the age given, else the birth date's age on the pricing date.
 */
export const factReadersOf = (
  parameters: ReadonlyArray<ParameterDocument>
): ReadonlyArray<{ readonly name: string; readonly birthDate?: string }> => {
  const rules = ageRulesOf(parameters)
  return parameters
    .filter((parameter) => parameter.fact === true)
    .map((parameter) => {
      const rule = rules.find((candidate) => candidate.age === parameter.name)
      return rule === undefined ? { name: parameter.name } : { name: parameter.name, birthDate: rule.birthDate }
    })
}

/** A fact's value: the parameter given, else (for an age) the age on the pricing date of the birth date given, else null. */
export const factValueOf = (
  reader: { readonly name: string; readonly birthDate?: string },
  parameters: ProductParameters,
  pricingDate: CalendarDate
): ParameterValue | null => {
  const value = parameters[reader.name]
  if (value !== undefined) return value
  const birthDate = reader.birthDate === undefined ? undefined : parameters[reader.birthDate]
  return typeof birthDate === "string" ? ageOn(birthDate, pricingDate) : null
}

/** Parameters in their request form: every value a string, the defaults filled in, in the product's order. */
export const parameterStrings = (parameters: ProductParameters): Record<string, string> => {
  const strings: Record<string, string> = {}
  for (const name in parameters) strings[name] = String(parameters[name])
  return strings
}
