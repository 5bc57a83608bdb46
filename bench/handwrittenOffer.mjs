// The limit: the offer endpoint's job written by hand for the reference tariff v1 —
// validation, arithmetic and the offer JSON, no engine, no Effect, no Schema. The
// benchmark checks it answers exactly what QuotingService.createOffer answers. The
// hand-written rival service (rival/) prices its quotes with the same rating.

const PARTY = new Set(["person", "organization"])
const TYPES = new Set(["personbil", "varevogn"])
const USAGE_LOADING = {
  privat_person_koersel: 0,
  godstransport_halv_omsaetning: 10,
  godstransport: 25,
  godstransport_erhverv: 30,
  "godstransport_privat/erhverv": 15
}
const KEYS = new Set([
  "payments_per_year",
  "policy_holder",
  "vehicle_type",
  "vehicle_user",
  "vehicle_owner",
  "vehicle_usage",
  "vehicle_price",
  "youngest_user_age",
  "youngest_user_birthdate"
])
const DIGITS = /^\d{1,12}$/
// the links an offer priced in-process gives: kasko's own documents (issue 31), relative to where it is served
const PRIVACY = { policy_href: "/privacy-policy" }

const halfUp = (numerator, denominator) => {
  const quotient = Math.floor(numerator / denominator)
  return 2 * (numerator - quotient * denominator) >= denominator ? quotient + 1 : quotient
}

/**
 * The tariff by hand: a request's product, variant, coverages, premium (øre) and the charges a quote's
 * price details show (øre a year), or undefined where the tariff refuses it.
 */
export const handwrittenRating = (body) => {
  const product = body?.product
  if (typeof product !== "object" || product === null || Object.keys(body).length !== 1) return undefined
  const name = product.product_name
  if (name !== "insurance-car-leasing" && name !== "insurance-car-standalone") return undefined
  const feature = product.features?.[0]?.name
  if (product.features.length !== 1 || (feature !== "standard" && feature !== "premium")) return undefined
  const p = product.parameters
  for (const key in p) if (!KEYS.has(key) || typeof p[key] !== "string") return undefined
  const ppy = p.payments_per_year ?? "1"
  if (
    (ppy !== "1" && ppy !== "12") ||
    !PARTY.has(p.policy_holder) ||
    !PARTY.has(p.vehicle_user) ||
    !PARTY.has(p.vehicle_owner) ||
    !TYPES.has(p.vehicle_type) ||
    !(p.vehicle_usage in USAGE_LOADING)
  )
    return undefined
  if (!DIGITS.test(p.vehicle_price)) return undefined
  const price = Number(p.vehicle_price)
  if (price < 1000 || price > 10_000_000) return undefined
  let age
  if (p.youngest_user_age !== undefined) {
    if (!DIGITS.test(p.youngest_user_age)) return undefined
    age = Number(p.youngest_user_age)
    if (age < 17 || age > 99) return undefined
  }
  const leasing = name === "insurance-car-leasing"
  const standard =
    p.policy_holder === "person" && p.vehicle_user === "person" && p.vehicle_usage === "privat_person_koersel"
  const premium = feature === "premium"
  // loadings on ansvar and kasko, as numerator/denominator
  let factorNumerator = 1
  let factorDenominator = 1
  const usage = USAGE_LOADING[p.vehicle_usage]
  if (usage !== 0) {
    factorNumerator *= 100 + usage
    factorDenominator *= 100
  }
  if (leasing && age !== undefined && age < 28) {
    factorNumerator *= age < 21 ? 160 : age < 25 ? 130 : 110
    factorDenominator *= 100
  }
  const [low, high] = standard ? [200, 120] : [240, 150]
  const kaskoBase = Math.min(price, 300_000) * low + Math.max(0, price - 300_000) * high // øre × 100
  const kasko = halfUp(kaskoBase * factorNumerator, 100 * factorDenominator)
  const ansvar = halfUp(
    (standard
      ? p.vehicle_type === "personbil"
        ? 180_000
        : 240_000
      : p.vehicle_type === "personbil"
        ? 240_000
        : 320_000) * factorNumerator,
    factorDenominator
  )
  const prefix = `${leasing ? "CL" : "CS"}-${standard ? "STD" : "EXT"}-`
  let taxable = kasko
  const coverages = []
  if (standard) {
    coverages.push(
      { id: `${prefix}KASKO`, name: "kasko", deductible: 5000 },
      { id: `${prefix}ANSVAR`, name: "ansvar" },
      { id: `${prefix}DYR`, name: "påkørsel_af_dyr" }
    )
    taxable += 15_000 + 40_000
    if (premium) {
      coverages.push(
        { id: `${prefix}LAANEBIL`, name: "lånebil" },
        { id: `${prefix}GLAS`, name: "udvidet_glas" },
        { id: `${prefix}FOERERULYKKE`, name: "udvidet_førerulykke" }
      )
      taxable += 35_000 + 45_000 + 25_000
    }
    if (leasing) {
      coverages.push({ id: `${prefix}AFLEVERING`, name: "afleveringsforsikring", limit: 15000 })
      taxable += 30_000
    }
    coverages.push({ id: `${prefix}VEJHJAELP`, name: "vejhjælp" })
  } else {
    if (premium) {
      coverages.push(
        { id: `${prefix}FOERERULYKKE`, name: "førerulykke", limit: 500000 },
        { id: `${prefix}RETSHJAELP`, name: "retshjælp", deductible: 2500, limit: 200000 },
        { id: `${prefix}REDNING`, name: "redning_i_udlandet" }
      )
      taxable += 30_000 + 20_000 + 25_000
    }
    coverages.push(
      { id: `${prefix}KASKO`, name: "kasko", deductible: 10000 },
      { id: `${prefix}FRISKADE`, name: "friskade" },
      { id: `${prefix}STATSAFGIFT`, name: "statsafgift" },
      { id: `${prefix}ANSVAR`, name: "ansvar" }
    )
    taxable += 50_000
  }
  const insuranceTax = halfUp(taxable * 110, 10_000)
  const total = taxable + ansvar + insuranceTax + halfUp(ansvar * 4290, 10_000) + 4_000 + 8_400
  const parameters = {
    payments_per_year: ppy,
    policy_holder: p.policy_holder,
    vehicle_type: p.vehicle_type,
    vehicle_user: p.vehicle_user,
    vehicle_owner: p.vehicle_owner,
    vehicle_usage: p.vehicle_usage,
    vehicle_price: String(price)
  }
  if (age !== undefined) parameters.youngest_user_age = String(age)
  return {
    product_name: name,
    feature,
    variant: standard ? "standard" : "extended",
    parameters,
    coverages,
    annually: halfUp(total, 100),
    monthly: Math.ceil((total * 105) / 120_000 - 1e-9),
    shown_charges: { skadesforsikringsafgift: insuranceTax, garantifondsbidrag: 4_000, miljøbidrag: 8_400 }
  }
}

export const handwrittenOffer = (body) => {
  const rating = handwrittenRating(body)
  if (rating === undefined) return undefined
  const { product_name, feature, variant, parameters, coverages, annually, monthly } = rating
  return {
    price: { annually, monthly },
    product: { product_name, parameters, features: [{ name: feature }] },
    policies: [{ ipid_href: `/products/${product_name}/variants/${variant}/ipid`, coverages }],
    privacy: PRIVACY
  }
}
