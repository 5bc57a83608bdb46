/**
 * Product parameters: the string-valued map a client sends (spec §2.2) decoded
 * into typed values, with the rules of DESIGN §2. Rules that need the pricing
 * date (the youngest driver's age) live in `checkDriverAge`.
 */
import { Schema, SchemaTransformation } from "effect"
import { ageOn, isCalendarDate, type CalendarDate } from "../input/CalendarDate.js"
import type { Violation } from "../Errors.js"
import { OneOf, optionalString, optionalStringWithDefault, RequestObject, rule } from "../input/Fields.js"

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

const PaymentsPerYear = Schema.Literals(["1", "12"]).transform([1, 12]).annotate({ message: "must be one of: 1, 12" })

const BirthDate = JsonString.check(
  rule((value: string) => isCalendarDate(value) || "must be a real date in the form YYYY-MM-DD", {
    toJsonSchema: () => ({ format: "date", maxLength: 10 })
  })
)

// The longest value each optional parameter may be sent as; a longer one is refused even when blank.
const MAX_LENGTH = { payments_per_year: 12, youngest_user_age: 12, youngest_user_birthdate: 10 } as const

/** The nine parameters of both products, decoded from their JSON-string form. */
export const ProductParameters = RequestObject({
  payments_per_year: optionalStringWithDefault(
    PaymentsPerYear,
    { maxLength: MAX_LENGTH.payments_per_year, enum: ["1", "12"], description: "Payments per year (default 1)" },
    "1"
  ),
  policy_holder: OneOf(POLICY_HOLDERS),
  vehicle_type: OneOf(VEHICLE_TYPES),
  vehicle_user: OneOf(POLICY_HOLDERS),
  vehicle_owner: OneOf(POLICY_HOLDERS),
  vehicle_usage: OneOf(VEHICLE_USAGES),
  vehicle_price: digitsBetween(VEHICLE_PRICE_MIN, VEHICLE_PRICE_MAX),
  youngest_user_age: optionalString(digitsBetween(DRIVER_AGE_MIN, DRIVER_AGE_MAX), {
    maxLength: MAX_LENGTH.youngest_user_age,
    pattern: "^[0-9]{1,12}$",
    description: `The youngest driver's age: digits of a number from ${DRIVER_AGE_MIN} to ${DRIVER_AGE_MAX}`
  }),
  youngest_user_birthdate: optionalString(BirthDate, {
    maxLength: MAX_LENGTH.youngest_user_birthdate,
    pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
    description: "The youngest driver's birth date, YYYY-MM-DD"
  })
})
export type ProductParameters = typeof ProductParameters.Type
export type ProductParametersInput = typeof ProductParameters.Encoded
export type VehicleUsage = ProductParameters["vehicle_usage"]

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
export const youngestDriverAge = (parameters: ProductParameters, pricingDate: CalendarDate): number | undefined =>
  parameters.youngest_user_age ??
  (parameters.youngest_user_birthdate === undefined
    ? undefined
    : ageOn(parameters.youngest_user_birthdate, pricingDate))

/** Parameters in their request form: every value a string, the default filled in. */
export const parameterStrings = (parameters: ProductParameters): Record<string, string> => ({
  payments_per_year: String(parameters.payments_per_year),
  policy_holder: parameters.policy_holder,
  vehicle_type: parameters.vehicle_type,
  vehicle_user: parameters.vehicle_user,
  vehicle_owner: parameters.vehicle_owner,
  vehicle_usage: parameters.vehicle_usage,
  vehicle_price: String(parameters.vehicle_price),
  ...(parameters.youngest_user_age === undefined ? {} : { youngest_user_age: String(parameters.youngest_user_age) }),
  ...(parameters.youngest_user_birthdate === undefined
    ? {}
    : { youngest_user_birthdate: parameters.youngest_user_birthdate })
})
