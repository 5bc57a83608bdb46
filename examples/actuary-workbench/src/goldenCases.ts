/**
 * The cases of the golden table: both products, both variants, both features,
 * every usage, both vehicle types, the price band edge at 300 000, the age
 * band edges 20/21/24/25/27/28, birth dates, monthly payments, and prices
 * whose monthly amount lands just past or on a whole krone.
 */
import { Examples } from "@kasko/core"
import type { PricingCase } from "@kasko/workbench"

const PRICING_DATE = "2026-03-02"

const goldenCase = (
  name: string,
  product: "leasing" | "standalone",
  feature: "standard" | "premium",
  parameters: Record<string, string>
): PricingCase => ({
  name,
  product_name: `insurance-car-${product}`,
  feature,
  pricing_date: PRICING_DATE,
  parameters: Examples.standardParameters(parameters)
})

const extended = { policy_holder: "organization" }

export const GOLDEN_CASES: ReadonlyArray<PricingCase> = [
  // the price band edge, Standard and Extended, both products
  ...(["299999", "300000", "300001"] as const).flatMap((price) => [
    goldenCase(`leasing standard band ${price}`, "leasing", "standard", { vehicle_price: price }),
    goldenCase(`leasing extended band ${price}`, "leasing", "standard", { ...extended, vehicle_price: price }),
    goldenCase(`standalone standard band ${price}`, "standalone", "premium", { vehicle_price: price }),
    goldenCase(`standalone extended band ${price}`, "standalone", "premium", { ...extended, vehicle_price: price })
  ]),
  // the age band edges: priced for leasing, validated but not priced for standalone
  ...(["20", "21", "24", "25", "27", "28"] as const).flatMap((age) => [
    goldenCase(`leasing standard age ${age}`, "leasing", "standard", { youngest_user_age: age }),
    goldenCase(`leasing extended age ${age}`, "leasing", "premium", {
      vehicle_user: "organization",
      youngest_user_age: age,
      vehicle_price: "450000"
    })
  ]),
  goldenCase("standalone age 20 not priced", "standalone", "standard", { youngest_user_age: "20" }),
  goldenCase("standalone age 28 not priced", "standalone", "standard", { youngest_user_age: "28" }),
  goldenCase("leasing birth date, 20 the day before turning 21", "leasing", "standard", {
    youngest_user_birthdate: "2005-03-03"
  }),
  goldenCase("leasing birth date, 21 on the birthday", "leasing", "standard", {
    youngest_user_birthdate: "2005-03-02"
  }),
  goldenCase("leasing age and birth date agreeing", "leasing", "premium", {
    youngest_user_age: "33",
    youngest_user_birthdate: "1992-12-31"
  }),
  // every usage, each making the Extended variant on its own
  ...(
    ["godstransport_halv_omsaetning", "godstransport", "godstransport_erhverv", "godstransport_privat/erhverv"] as const
  ).flatMap((usage) => [
    goldenCase(`leasing ${usage} personbil`, "leasing", "standard", { vehicle_usage: usage, vehicle_price: "250000" }),
    goldenCase(`standalone ${usage} varevogn premium`, "standalone", "premium", {
      vehicle_usage: usage,
      vehicle_type: "varevogn",
      vehicle_price: "380000"
    })
  ]),
  // vehicle types and features
  goldenCase("leasing standard varevogn premium", "leasing", "premium", {
    vehicle_type: "varevogn",
    vehicle_price: "175000"
  }),
  goldenCase("leasing extended varevogn standard", "leasing", "standard", {
    ...extended,
    vehicle_type: "varevogn",
    vehicle_price: "175000"
  }),
  goldenCase("standalone standard personbil standard", "standalone", "standard", {}),
  goldenCase("standalone extended personbil standard", "standalone", "standard", { vehicle_user: "organization" }),
  // monthly payments: the same annual and monthly amounts as yearly ones
  goldenCase("leasing monthly payments", "leasing", "premium", {
    payments_per_year: "12",
    vehicle_price: "350000",
    youngest_user_age: "23"
  }),
  goldenCase("standalone monthly payments extended", "standalone", "premium", {
    ...extended,
    payments_per_year: "12",
    vehicle_price: "520000"
  }),
  // the limits of vehicle_price
  goldenCase("leasing cheapest vehicle", "leasing", "standard", { vehicle_price: "1000" }),
  goldenCase("standalone dearest vehicle, extended, loaded", "standalone", "premium", {
    ...extended,
    vehicle_usage: "godstransport_erhverv",
    vehicle_price: "10000000"
  }),
  // rounding: odd prices whose lines and monthly amounts need the half-up and round-up rules
  goldenCase("leasing odd price, age 24", "leasing", "standard", { vehicle_price: "123457", youngest_user_age: "24" }),
  goldenCase("leasing odd price 333333, age 19", "leasing", "premium", {
    vehicle_price: "333333",
    youngest_user_age: "19"
  }),
  goldenCase("standalone odd price 87654", "standalone", "standard", { vehicle_price: "87654" }),
  goldenCase("leasing extended odd price 271828, age 26", "leasing", "standard", {
    ...extended,
    vehicle_price: "271828",
    youngest_user_age: "26"
  })
]
