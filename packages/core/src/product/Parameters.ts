/**
 * Product parameters: the string-valued map a client sends (spec §2.2) decoded
 * into typed values, with the rules of DESIGN §2. Rules that need the pricing
 * date (the youngest driver's age) live in `checkDriverAge`.
 */
import { Schema, SchemaTransformation } from "effect"
import { ageOn, isCalendarDate, type CalendarDate } from "../input/CalendarDate.js"
import type { Violation } from "../Errors.js"
import { OneOf, optionalString, optionalStringWithDefault, RequestObject, rule } from "../input/Fields.js"
import type { ParameterDocument } from "./ProductDocument.js"

export const POLICY_HOLDERS = ["person", "organization"] as const
export const VEHICLE_TYPES = ["personbil", "varevogn"] as const
export const VEHICLE_USAGES = [
  "privat_person_koersel",
  "godstransport_halv_omsaetning",
  "godstransport",
  "godstransport_erhverv",
  "godstransport_privat/erhverv"
] as const satisfies ReadonlyArray<string>

export type PartyKind = (typeof POLICY_HOLDERS)[number]
export type VehicleType = (typeof VEHICLE_TYPES)[number]

export const VEHICLE_PRICE_MIN = 1_000
export const VEHICLE_PRICE_MAX = 10_000_000
export const DRIVER_AGE_MIN = 17
export const DRIVER_AGE_MAX = 99

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
      if (parameter.required) return digits
      return optionalString(digits, {
        maxLength: DIGITS_MAX_LENGTH,
        pattern: "^[0-9]{1,12}$",
        ...description
      })
    }
    case "date":
      if (parameter.required) return BirthDate
      return optionalString(BirthDate, {
        maxLength: DATE_MAX_LENGTH,
        pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        ...description
      })
  }
}

/** The Schema of a product's parameters, decoded from their JSON-string form: one field per parameter, in order. */
export const parametersSchemaOf = (
  parameters: ReadonlyArray<ParameterDocument>
): Schema.Codec<ProductParameters, ProductParametersInput> =>
  RequestObject(
    Object.fromEntries(parameters.map((parameter) => [parameter.name, parameterSchema(parameter)]))
  ) as unknown as Schema.Codec<ProductParameters, ProductParametersInput>

/**
 * The rules that need the pricing date: a birth date must make the youngest
 * driver 17–99 years old on it, and when both youngest-user fields are given
 * they must agree. Reads the raw map so it can report alongside every other
 * violation of the request; fields that are themselves invalid are skipped
 * (their own violation is reported by the Schema).
 */
export const checkDriverAge = (
  rawParameters: unknown,
  pricingDate: CalendarDate,
  fieldPrefix: string
): Array<Violation> => {
  if (typeof rawParameters !== "object" || rawParameters === null) return []
  const raw = rawParameters as Record<string, unknown>
  const birthDate = raw["youngest_user_birthdate"]
  if (typeof birthDate !== "string" || !isCalendarDate(birthDate)) return []
  const field = `${fieldPrefix}.youngest_user_birthdate`
  const ageFromBirthDate = ageOn(birthDate, pricingDate)
  if (ageFromBirthDate < DRIVER_AGE_MIN || ageFromBirthDate > DRIVER_AGE_MAX) {
    return [
      {
        field,
        message: `must make the youngest driver ${DRIVER_AGE_MIN}–${DRIVER_AGE_MAX} years old on ${pricingDate}`
      }
    ]
  }
  const statedAge = digitsWithin(raw["youngest_user_age"], DRIVER_AGE_MIN, DRIVER_AGE_MAX)
  if (statedAge !== undefined && statedAge !== ageFromBirthDate) {
    return [
      {
        field,
        message: `disagrees with youngest_user_age: the birth date gives age ${ageFromBirthDate} on ${pricingDate}`
      }
    ]
  }
  return []
}

/** The youngest driver's age on the pricing date, when either youngest-user parameter is given. */
export const youngestDriverAge = (parameters: ProductParameters, pricingDate: CalendarDate): number | undefined => {
  const age = parameters["youngest_user_age"]
  if (typeof age === "number") return age
  const birthDate = parameters["youngest_user_birthdate"]
  return typeof birthDate === "string" ? ageOn(birthDate, pricingDate) : undefined
}

/** Parameters in their request form: every value a string, the defaults filled in, in the product's order. */
export const parameterStrings = (parameters: ProductParameters): Record<string, string> => {
  const strings: Record<string, string> = {}
  for (const name in parameters) strings[name] = String(parameters[name])
  return strings
}
