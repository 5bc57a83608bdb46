/**
 * Product parameters: the string-valued map a client sends (spec §2.2) decoded
 * into typed values, with the rules of DESIGN §2. Rules that need the pricing
 * date (the youngest driver's age) live in `checkDriverAge`.
 */
import { Either, Schema } from "effect"
import { ageOn, isCalendarDate, type CalendarDate } from "./CalendarDate.js"
import type { Violation } from "./Errors.js"
import { OneOf, RequestObject } from "./Fields.js"

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

const JsonString = Schema.String.annotations({ message: () => "must be a JSON string" })


const digitsBetween = (min: number, max: number) =>
  Schema.transform(
    JsonString.pipe(Schema.filter((value) => /^\d{1,12}$/.test(value) || "must be a string of digits")),
    Schema.Number,
    { strict: true, decode: (digits) => Number(digits), encode: (value) => String(value) }
  ).pipe(Schema.filter((value) => (value >= min && value <= max) || `must be between ${min} and ${max}`))

const PaymentsPerYear = Schema.transformLiterals(["1", 1], ["12", 12]).annotations({
  message: () => ({ message: "must be one of: 1, 12", override: true })
})

const BirthDate = JsonString.pipe(
  Schema.filter((value) => isCalendarDate(value) || "must be a real date in the form YYYY-MM-DD")
)

/** The nine parameters of both products, decoded from their JSON-string form. */
export const ProductParameters = RequestObject({
  payments_per_year: Schema.optionalWith(PaymentsPerYear, { exact: true, default: () => 1 as const }),
  policy_holder: OneOf(POLICY_HOLDERS),
  vehicle_type: OneOf(VEHICLE_TYPES),
  vehicle_user: OneOf(POLICY_HOLDERS),
  vehicle_owner: OneOf(POLICY_HOLDERS),
  vehicle_usage: OneOf(VEHICLE_USAGES),
  vehicle_price: digitsBetween(VEHICLE_PRICE_MIN, VEHICLE_PRICE_MAX),
  youngest_user_age: Schema.optionalWith(digitsBetween(DRIVER_AGE_MIN, DRIVER_AGE_MAX), { exact: true }),
  youngest_user_birthdate: Schema.optionalWith(BirthDate, { exact: true })
})
export type ProductParameters = typeof ProductParameters.Type
export type ProductParametersInput = typeof ProductParameters.Encoded
export type VehicleUsage = ProductParameters["vehicle_usage"]

const decodeField = <A, I>(schema: Schema.Schema<A, I>, value: unknown): A | undefined =>
  Either.getOrUndefined(Schema.decodeUnknownEither(schema)(value))

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
  const birthDate = decodeField(BirthDate, raw["youngest_user_birthdate"])
  if (birthDate === undefined) return []
  const field = `${fieldPrefix}.youngest_user_birthdate`
  const ageFromBirthDate = ageOn(birthDate, pricingDate)
  if (ageFromBirthDate < DRIVER_AGE_MIN || ageFromBirthDate > DRIVER_AGE_MAX) {
    return [{ field, message: `must make the youngest driver ${DRIVER_AGE_MIN}–${DRIVER_AGE_MAX} years old on ${pricingDate}` }]
  }
  const statedAge = decodeField(digitsBetween(DRIVER_AGE_MIN, DRIVER_AGE_MAX), raw["youngest_user_age"])
  if (statedAge !== undefined && statedAge !== ageFromBirthDate) {
    return [{ field, message: `disagrees with youngest_user_age: the birth date gives age ${ageFromBirthDate} on ${pricingDate}` }]
  }
  return []
}

/** The youngest driver's age on the pricing date, when either youngest-user parameter is given. */
export const youngestDriverAge = (parameters: ProductParameters, pricingDate: CalendarDate): number | undefined =>
  parameters.youngest_user_age ??
    (parameters.youngest_user_birthdate === undefined ? undefined : ageOn(parameters.youngest_user_birthdate, pricingDate))
