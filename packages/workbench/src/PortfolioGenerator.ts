/**
 * A seeded book of car policies for tests, examples and benchmarks: the same
 * seed gives the same book on every machine and Node version (pure-rand's
 * xoroshiro128+ draws integers; every distribution is a table of integer
 * weights, no floating-point function in sight). The distributions, stated in
 * `PORTFOLIO_DISTRIBUTIONS` and in `kasko portfolio generate --help`, are meant
 * to look like a Danish partner book; every case is valid for its product.
 * Browser-safe.
 */
import { CalendarDate } from "@kasko/core/actuarial"
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from "pure-rand"

export interface PortfolioGeneration {
  /** How many policies. */
  readonly size: number
  /** Any integer: the same seed, the same book. */
  readonly seed: number
  /** The date the drivers' birth dates are drawn against (their ages hold on it): YYYY-MM-DD. */
  readonly as_of: string
}

/** The columns of a generated portfolio, in order. */
export const GENERATED_COLUMNS = [
  "policy_id",
  "product_name",
  "feature",
  "payments_per_year",
  "policy_holder",
  "vehicle_type",
  "vehicle_user",
  "vehicle_owner",
  "vehicle_usage",
  "vehicle_price",
  "youngest_user_age",
  "youngest_user_birthdate",
  "weight"
] as const

/** The distributions, as the help states them. */
export const PORTFOLIO_DISTRIBUTIONS = `Distributions (each policy drawn independently):
  product         insurance-car-leasing 65 %, insurance-car-standalone 35 %
  feature         standard 62 %, premium 38 %
  payments        12 a year 70 %, 1 a year 30 %
  policy holder   person 70 %, organization 30 %
  vehicle user    holder a person: person 97 %; holder an organization: person 55 % (company cars), organization 45 %
  vehicle owner   organization (the partner owns the vehicle)
  vehicle type    holder a person: personbil 94 %, varevogn 6 %; an organization: personbil 60 %, varevogn 40 %
  usage           personbil of a person for a person: privat_person_koersel 96 %, godstransport_privat/erhverv 4 %;
                  other personbiler: privat 60 %, erhverv 15 %, privat/erhverv 15 %, halv omsætning 5 %, godstransport 5 %;
                  varevogne: godstransport 35 %, erhverv 25 %, halv omsætning 15 %, privat/erhverv 15 %, privat 10 %
  vehicle price   personbil: 80–150k 15 %, 150–250k 30 %, 250–350k 25 %, 350–500k 18 %, 500–800k 9 %, 0.8–1.5M 3 %;
                  varevogn: 120–200k 25 %, 200–300k 40 %, 300–450k 28 %, 450–700k 7 % (uniform within, whole 1 000 kr)
  youngest driver user a person: age 65 %, birth date 20 %, not given 15 %; an organization: age 30 %, not given 70 %
  driver's age    18–20 3 %, 21–24 7 %, 25–27 7 %, 28–34 15 %, 35–49 33 %, 50–64 25 %, 65–85 10 % (on --as-of)
  weight          1 for 85 %; otherwise the part of the year written, 0.05–0.95`

type Weighted<T> = ReadonlyArray<readonly [T, number]>

const pick = <T>(rng: RandomGenerator, table: Weighted<T>): T => {
  let total = 0
  for (const [, weight] of table) total += weight
  let draw = unsafeUniformIntDistribution(0, total - 1, rng)
  for (const [value, weight] of table) {
    if (draw < weight) return value
    draw -= weight
  }
  return table.at(-1)![0]
}

const between = (rng: RandomGenerator, from: number, to: number) => unsafeUniformIntDistribution(from, to, rng)

const PRODUCTS: Weighted<string> = [
  ["insurance-car-leasing", 65],
  ["insurance-car-standalone", 35]
]
const FEATURES: Weighted<string> = [
  ["standard", 62],
  ["premium", 38]
]
const PAYMENTS: Weighted<string> = [
  ["12", 70],
  ["1", 30]
]
const HOLDERS: Weighted<string> = [
  ["person", 70],
  ["organization", 30]
]
const USERS_OF: Readonly<Record<string, Weighted<string>>> = {
  person: [
    ["person", 97],
    ["organization", 3]
  ],
  organization: [
    ["person", 55],
    ["organization", 45]
  ]
}
const TYPES_OF: Readonly<Record<string, Weighted<string>>> = {
  person: [
    ["personbil", 94],
    ["varevogn", 6]
  ],
  organization: [
    ["personbil", 60],
    ["varevogn", 40]
  ]
}
const PRIVATE_CAR_USAGES: Weighted<string> = [
  ["privat_person_koersel", 96],
  ["godstransport_privat/erhverv", 4]
]
const OTHER_CAR_USAGES: Weighted<string> = [
  ["privat_person_koersel", 60],
  ["godstransport_erhverv", 15],
  ["godstransport_privat/erhverv", 15],
  ["godstransport_halv_omsaetning", 5],
  ["godstransport", 5]
]
const VAN_USAGES: Weighted<string> = [
  ["godstransport", 35],
  ["godstransport_erhverv", 25],
  ["godstransport_halv_omsaetning", 15],
  ["godstransport_privat/erhverv", 15],
  ["privat_person_koersel", 10]
]
/** Price bands in thousands of kroner. */
const CAR_PRICES: Weighted<readonly [number, number]> = [
  [[80, 150], 15],
  [[150, 250], 30],
  [[250, 350], 25],
  [[350, 500], 18],
  [[500, 800], 9],
  [[800, 1500], 3]
]
const VAN_PRICES: Weighted<readonly [number, number]> = [
  [[120, 200], 25],
  [[200, 300], 40],
  [[300, 450], 28],
  [[450, 700], 7]
]
type DriverGiven = "age" | "birthdate" | "none"
const DRIVER_OF_PERSON: Weighted<DriverGiven> = [
  ["age", 65],
  ["birthdate", 20],
  ["none", 15]
]
const DRIVER_OF_ORGANIZATION: Weighted<DriverGiven> = [
  ["age", 30],
  ["none", 70]
]
const AGES: Weighted<readonly [number, number]> = [
  [[18, 20], 3],
  [[21, 24], 7],
  [[25, 27], 7],
  [[28, 34], 15],
  [[35, 49], 33],
  [[50, 64], 25],
  [[65, 85], 10]
]
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

const pad = (value: number, width: number) => String(value).padStart(width, "0")

/** A birth date making the driver exactly `age` on `asOf` (29 February never drawn). */
const birthDateFor = (rng: RandomGenerator, age: number, asOf: string): string => {
  const [year, month, day] = asOf.split("-").map(Number) as [number, number, number]
  const birthMonth = between(rng, 1, 12)
  const birthDay = between(rng, 1, DAYS_IN_MONTH[birthMonth - 1]!)
  const hadBirthday = birthMonth < month || (birthMonth === month && birthDay <= day)
  return `${pad(year - age - (hadBirthday ? 0 : 1), 4)}-${pad(birthMonth, 2)}-${pad(birthDay, 2)}`
}

/** The fields of one generated policy, in GENERATED_COLUMNS order. */
const policyFields = (rng: RandomGenerator, index: number, asOf: string): Array<string> => {
  const product = pick(rng, PRODUCTS)
  const feature = pick(rng, FEATURES)
  const payments = pick(rng, PAYMENTS)
  const holder = pick(rng, HOLDERS)
  const user = pick(rng, USERS_OF[holder]!)
  const type = pick(rng, TYPES_OF[holder]!)
  const usage = pick(
    rng,
    type === "varevogn" ? VAN_USAGES : holder === "person" && user === "person" ? PRIVATE_CAR_USAGES : OTHER_CAR_USAGES
  )
  const [from, to] = pick(rng, type === "varevogn" ? VAN_PRICES : CAR_PRICES)
  const price = between(rng, from, to) * 1_000
  const given = pick(rng, user === "person" ? DRIVER_OF_PERSON : DRIVER_OF_ORGANIZATION)
  const [youngest, oldest] = pick(rng, AGES)
  const age = between(rng, youngest, oldest)
  const partOfYear = between(rng, 1, 100) <= 85 ? "1" : `0.${pad(between(rng, 5, 95), 2)}`
  return [
    `P${pad(index + 1, 7)}`,
    product,
    feature,
    payments,
    holder,
    type,
    user,
    "organization",
    usage,
    String(price),
    given === "age" ? String(age) : "",
    given === "birthdate" ? birthDateFor(rng, age, asOf) : "",
    partOfYear
  ]
}

/** The lines of a generated portfolio (CSV, no line breaks): the header, then `size` policies. */
export function* generatedPortfolioLines(options: PortfolioGeneration): Generator<string> {
  if (!Number.isSafeInteger(options.size) || options.size < 0)
    throw new Error(`the size must be a whole number, not ${options.size}`)
  if (!Number.isSafeInteger(options.seed)) throw new Error(`the seed must be a whole number, not ${options.seed}`)
  if (!CalendarDate.isCalendarDate(options.as_of))
    throw new Error(`the as-of date must be YYYY-MM-DD, not "${options.as_of}"`)
  // xoroshiro128+ takes a 32-bit seed: fold larger ones in, so every integer seeds a book
  const rng = xoroshiro128plus((options.seed | 0) ^ (Math.floor(options.seed / 2 ** 32) | 0))
  yield GENERATED_COLUMNS.join(",")
  // none of the values holds a comma, a quote or a line break: no field needs quoting
  for (let index = 0; index < options.size; index++) yield policyFields(rng, index, options.as_of).join(",")
}
