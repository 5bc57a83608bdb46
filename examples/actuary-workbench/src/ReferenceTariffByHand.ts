/**
 * The reference tariff v1 written out by hand from DESIGN §3 and
 * docs/tariff-charges.md, sharing no code with the engine: the independent oracle
 * the golden table is generated from. If the engine and this file disagree,
 * one of them misreads the tariff table.
 */

export interface HandCase {
  readonly product_name: "insurance-car-leasing" | "insurance-car-standalone"
  readonly feature: "standard" | "premium"
  readonly policy_holder: "person" | "organization"
  readonly vehicle_user: "person" | "organization"
  readonly vehicle_type: "personbil" | "varevogn"
  readonly vehicle_usage: string
  readonly vehicle_price: number
  /** The youngest driver's age on the pricing date, if known. */
  readonly driver_age: number | undefined
}

export interface HandPrice {
  /** The annual total with the charges, øre: what `annually` rounds. */
  readonly annual_total_ore: number
  readonly annually: number
  readonly monthly: number
  /** Coverage → premium in øre. */
  readonly premiums: Readonly<Record<string, number>>
}

const USAGE_LOADING_PERCENT: Readonly<Record<string, number>> = {
  privat_person_koersel: 0,
  godstransport_halv_omsaetning: 10,
  godstransport: 25,
  godstransport_erhverv: 30,
  "godstransport_privat/erhverv": 15
}

const ageLoadingPercent = (age: number | undefined): number =>
  age === undefined ? 0 : age < 21 ? 60 : age < 25 ? 30 : age < 28 ? 10 : 0

/** øre × Π(100 + p)/100, rounded half up once. */
const loaded = (baseOreTimes100: bigint, percents: ReadonlyArray<number>): number => {
  const numerator = percents.reduce((product, percent) => product * BigInt(100 + percent), baseOreTimes100)
  const denominator = percents.reduce((product) => product * 100n, 100n)
  return Number((2n * numerator + denominator) / (2n * denominator))
}

const halfUp = (numerator: bigint, denominator: bigint) => Number((2n * numerator + denominator) / (2n * denominator))

/** Prices one case exactly as the tariff table reads. */
export const priceByHand = (c: HandCase): HandPrice => {
  const standard =
    c.policy_holder === "person" && c.vehicle_user === "person" && c.vehicle_usage === "privat_person_koersel"
  const premium = c.feature === "premium"
  const leasing = c.product_name === "insurance-car-leasing"
  const loadings = [
    USAGE_LOADING_PERCENT[c.vehicle_usage]!,
    ...(leasing ? [ageLoadingPercent(c.driver_age)] : [])
  ].filter((p) => p !== 0)

  // kasko: basis points of the price up to 300 000 and above; base in øre × 100 = kroner × basis points
  const [lowRate, highRate] = standard ? [200n, 120n] : [240n, 150n]
  const price = BigInt(c.vehicle_price)
  const kaskoBase =
    (price < 300_000n ? price : 300_000n) * lowRate + (price > 300_000n ? price - 300_000n : 0n) * highRate
  const ansvarKroner = standard
    ? c.vehicle_type === "personbil"
      ? 1800
      : 2400
    : c.vehicle_type === "personbil"
      ? 2400
      : 3200

  const premiums: Record<string, number> = {
    kasko: loaded(kaskoBase, loadings),
    ansvar: loaded(BigInt(ansvarKroner) * 10_000n, loadings)
  }
  const fixed = (coverage: string, kroner: number) => (premiums[coverage] = kroner * 100)
  if (standard) {
    fixed("påkørsel_af_dyr", 150)
    fixed("vejhjælp", 400)
    if (leasing) fixed("afleveringsforsikring", 300)
    if (premium) {
      fixed("lånebil", 350)
      fixed("udvidet_glas", 450)
      fixed("udvidet_førerulykke", 250)
    }
  } else {
    fixed("friskade", 500)
    if (premium) {
      fixed("førerulykke", 300)
      fixed("retshjælp", 200)
      fixed("redning_i_udlandet", 250)
    }
  }
  const linesTotal = Object.values(premiums).reduce((sum, ore) => sum + ore, 0)
  const taxable = linesTotal - premiums["ansvar"]!
  const skadesforsikringsafgift = halfUp(BigInt(taxable) * 110n, 10_000n)
  const statsafgift = halfUp(BigInt(premiums["ansvar"]!) * 4290n, 10_000n)
  const total = linesTotal + skadesforsikringsafgift + statsafgift + 4000 + 8400
  return {
    annual_total_ore: total,
    annually: halfUp(BigInt(total), 100n),
    monthly: Number((BigInt(total) * 105n + 120_000n - 1n) / 120_000n),
    premiums
  }
}
