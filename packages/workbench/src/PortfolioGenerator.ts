/**
 * A seeded book of car policies for tests, examples and benchmarks: the same
 * seed gives the same book on every machine and Node version (pure-rand's
 * xoroshiro128+ draws integers; every distribution is a table of integer
 * weights, no floating-point function in sight: SeededDraws.ts). The seed
 * products' distributions, stated in `PORTFOLIO_DISTRIBUTIONS` and in
 * `kasko portfolio generate --help`, are meant to look like a Danish partner
 * book; a product added as data is drawn from its document
 * (`ADDED_PRODUCT_DISTRIBUTIONS`, ProductDraws.ts). Every case is valid for its
 * product. Browser-safe.
 */
import { ProductCatalogue, type ProductDocument } from "@kasko/core/actuarial"
import { csvFormatRow } from "d3-dsv"
import { DRIVER_AGES, productPolicyDraw } from "./ProductDraws.js"
import {
  anyOf,
  between,
  birthDateFor,
  pad,
  partOfYear,
  pick,
  type RandomGenerator,
  seededGenerator,
  type Weighted
} from "./SeededDraws.js"

/** What `kasko portfolio generate` draws: how many policies, the seed, the date ages hold on, the products. */
export interface PortfolioGeneration {
  /** How many policies. */
  readonly size: number
  /** Any integer: the same seed, the same book. */
  readonly seed: number
  /** The date the drivers' birth dates are drawn against (their ages hold on it): YYYY-MM-DD. */
  readonly as_of: string
  /**
   * The products of the book, each policy's drawn among them (each as likely): a shipped product as it ships by
   * `PORTFOLIO_DISTRIBUTIONS`, any other from its document by `ADDED_PRODUCT_DISTRIBUTIONS`; the columns are
   * their parameters. Undefined: the seed products, as `PORTFOLIO_DISTRIBUTIONS` states.
   */
  readonly products?: ReadonlyArray<ProductDocument.ProductDocument>
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
/**
 * The fields of one policy of a seed product after its id and product name, in GENERATED_COLUMNS order: its
 * feature, parameters and weight (the seed products' distributions are the same).
 */
const seedPolicyFields = (rng: RandomGenerator, asOf: string): Array<string> => {
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
  const [youngest, oldest] = pick(rng, DRIVER_AGES)
  const age = between(rng, youngest, oldest)
  const weight = partOfYear(rng)
  return [
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
    weight
  ]
}

const policyId = (index: number) => `P${pad(index + 1, 7)}`

/** The lines of a generated portfolio (CSV, no line breaks): the header, then `size` policies. */
export function* generatedPortfolioLines(options: PortfolioGeneration): Generator<string> {
  const rng = seededGenerator(options)
  if (options.products !== undefined) {
    yield* namedProductLines(rng, options, options.products)
    return
  }
  yield GENERATED_COLUMNS.join(",")
  // none of the values holds a comma, a quote or a line break: no field needs quoting
  for (let index = 0; index < options.size; index++) {
    const product = pick(rng, PRODUCTS)
    yield [policyId(index), product, ...seedPolicyFields(rng, options.as_of)].join(",")
  }
}

/** The columns after product_name a seed policy's fields fill, by name. */
const SEED_FIELD_COLUMNS = GENERATED_COLUMNS.slice(2)

/** Draws a policy of the product: its feature, parameters (blank: not given) and weight, by column. */
const policyDrawOf = (
  document: ProductDocument.ProductDocument
): ((rng: RandomGenerator, asOf: string) => Record<string, string>) => {
  if (ProductCatalogue.shipped.document(document.product_name) === document)
    return (rng, asOf) => {
      const fields = seedPolicyFields(rng, asOf)
      return Object.fromEntries(SEED_FIELD_COLUMNS.map((column, index) => [column, fields[index]!]))
    }
  const draw = productPolicyDraw(document)
  return (rng, asOf) => {
    const values = draw(rng, asOf)
    values["weight"] = partOfYear(rng)
    return values
  }
}

/** A book of the products named: each policy's product drawn among them, its columns their parameters. */
function* namedProductLines(
  rng: RandomGenerator,
  options: PortfolioGeneration,
  products: ReadonlyArray<ProductDocument.ProductDocument>
): Generator<string> {
  if (products.length === 0) throw new Error("a book needs a product")
  const draws = products.map((document) => ({ name: document.product_name, draw: policyDrawOf(document) }))
  const parameters = [
    ...new Set(products.flatMap((document) => document.parameters.map((parameter) => parameter.name)))
  ]
  const columns = ["feature", ...parameters, "weight"]
  // names, numbers and dates never need quoting; an option's id may hold a comma or a quote, quoted as CSV quotes it
  const quoting = products.some((document) =>
    document.parameters.some((parameter) => parameter.options?.some((option) => /[",\r\n]/.test(option.id)))
  )
  const line = quoting ? csvFormatRow : (fields: ReadonlyArray<string>) => fields.join(",")
  yield line(["policy_id", "product_name", ...columns])
  for (let index = 0; index < options.size; index++) {
    const { name, draw } = anyOf(rng, draws)
    const values = draw(rng, options.as_of)
    yield line([policyId(index), name, ...columns.map((column) => values[column] ?? "")])
  }
}
