// The rival's domain: requests validated with the Effect Schemas kasko publishes for its wire format
// (`@kasko/core/transport`), decoded through Effect's plain Schema.decodeUnknownSync as any Effect user
// would; a few cross-field rules by hand; prices from the hand-written tariff (../handwrittenOffer.mjs);
// the quote and its answers built as spec §2.9–2.10 show them.
import { Offer, QuoteRequest } from "@kasko/core/transport"
import { Schema, SchemaIssue } from "effect"
import { randomInt, randomUUID } from "node:crypto"
import { handwrittenRating } from "../handwrittenOffer.mjs"

const THIRTY_DAYS_MS = 30 * 24 * 60 * 60 * 1000
const DECODE_OPTIONS = { errors: "all", onExcessProperty: "error" }
const ROLES = ["policy_holder", "vehicle_user", "vehicle_owner"]
const QUOTED_NAMES = {
  "insurance-car-leasing": { standard: "private-insurance-car-leasing", extended: "business-insurance-car-leasing" },
  "insurance-car-standalone": {
    standard: "private-insurance-car-standalone",
    extended: "business-car-insurance-standalone"
  }
}
const VEHICLE_TYPE_CODES = { personbil: "01", varevogn: "03" }
const VEHICLE_USAGE_CODES = {
  privat_person_koersel: "01",
  godstransport: "40",
  godstransport_halv_omsaetning: "41",
  godstransport_erhverv: "42",
  "godstransport_privat/erhverv": "43"
}
const INSURER = {
  organization: { cvr_number: "12345674", name: "Kasko Forsikring A/S" },
  address: { street: "Forsikringsvej", house_number: "1", postal_code: 2100, city: "København Ø" }
}

const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1()

/** A request the service refuses, with every reason it found as `{field, message}` (answered 400). */
export class InvalidRequest extends Error {
  constructor(violations) {
    super("invalid request")
    this.violations = violations
  }
}

const decoderOf = (schema) => {
  const decode = Schema.decodeUnknownSync(schema, DECODE_OPTIONS)
  return (body) => {
    try {
      return decode(body)
    } catch (error) {
      if (!Schema.isSchemaError(error)) throw error
      throw new InvalidRequest(
        formatIssue(error.issue).issues.map(({ path, message }) => ({ field: path.join("."), message }))
      )
    }
  }
}

const decodeOffer = decoderOf(Offer.OfferRequest)
const decodeQuote = decoderOf(QuoteRequest.QuoteRequest)

const rate = (product) => {
  const rating = handwrittenRating({ product })
  if (rating === undefined) throw new InvalidRequest([{ field: "product", message: "cannot be priced" }])
  return rating
}

/** The rules one Schema cannot say: the parties carry the roles the parameters name, the start is not past. */
const crossFieldViolations = (request, today) => {
  const parameters = request.product.parameters
  const parties = request.policy.parties
  const violations = []
  const violation = (field, message) => violations.push({ field, message })
  if (parameters.vehicle_owner !== "organization") violation("product.parameters.vehicle_owner", "must be organization")
  for (const role of ROLES) {
    const holders = parties.filter((party) => party[role] === true)
    if (holders.length === 0) violation("policy.parties", `must include a party with ${role}: true`)
    if (holders.some((party) => party[parameters[role]] === undefined))
      violation("policy.parties", `the ${role} must carry a ${parameters[role]}`)
  }
  if (request.policy.expected_effective_at < today)
    violation("policy.expected_effective_at", `must not be before ${today}`)
  return violations
}

const formatKroner = (ore) => `${Math.trunc(ore / 100)}.${String(ore % 100).padStart(2, "0")}`
const halfUp = (numerator, denominator) => Math.floor((2 * numerator + denominator) / (2 * denominator))

/** Nine random digits (the first not 0) and a Luhn check digit. */
const luhnNumber = (digits) => {
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    const digit = Number(digits[digits.length - 1 - index])
    const weighted = index % 2 === 0 ? digit * 2 : digit
    sum += weighted > 9 ? weighted - 9 : weighted
  }
  return digits + String((10 - (sum % 10)) % 10)
}
const newPolicyNumber = () => luhnNumber(String(randomInt(100_000_000, 1_000_000_000)))
const newQuoteNumber = () =>
  luhnNumber(`${randomInt(100_000_000, 1_000_000_000)}${randomInt(0, 1_000_000).toString().padStart(6, "0")}`).replace(
    /(\d{4})(?=\d)/g,
    "$1 "
  )

/** `POST /insurance/car/offers`: the offer's answer, its links absolute under `publicUrl`. */
export const offerOf = (body, publicUrl) => {
  decodeOffer(body)
  const rating = rate(body.product)
  return {
    price: { annually: rating.annually, monthly: rating.monthly },
    product: { product_name: rating.product_name, parameters: rating.parameters, features: [{ name: rating.feature }] },
    policies: [
      {
        ipid_href: `${publicUrl}/products/${rating.product_name}/variants/${rating.variant}/ipid`,
        coverages: rating.coverages
      }
    ],
    privacy: { policy_href: `${publicUrl}/privacy-policy` }
  }
}

/** `POST /insurance/car/quotes`: a new quote's content (what is stored) from a request. */
export const newQuote = (body, publicUrl, now) => {
  const request = decodeQuote(body)
  const violations = crossFieldViolations(request, new Date(now).toISOString().slice(0, 10))
  if (violations.length > 0) throw new InvalidRequest(violations)
  const rating = rate(body.product)
  const perPayment = request.product.parameters.payments_per_year
  const standard = rating.variant === "standard"
  const details = {}
  for (const [charge, ore] of Object.entries(rating.shown_charges))
    details[charge] = formatKroner(halfUp(ore, perPayment))
  const parameters = request.product.parameters
  return {
    quote_id: randomUUID(),
    price: {
      amount: perPayment === 1 ? rating.annually : rating.monthly,
      currency: "DKK",
      payments_per_year: perPayment,
      details
    },
    product: {
      product_name: QUOTED_NAMES[rating.product_name][rating.variant],
      parameters: rating.parameters,
      features: [{ name: rating.feature }]
    },
    policies: [
      {
        policy_number: newPolicyNumber(),
        ipid_href: `${publicUrl}/products/${rating.product_name}/variants/${rating.variant}/ipid`,
        insurable_object: {
          vehicle: {
            ...request.policy.insurable_object.vehicle,
            vehicle_type: VEHICLE_TYPE_CODES[parameters.vehicle_type],
            vehicle_usage: VEHICLE_USAGE_CODES[parameters.vehicle_usage]
          }
        },
        parties: standard
          ? request.policy.parties
          : request.policy.parties.map(({ phone: _phone, email: _email, ...party }) => party),
        coverages: rating.coverages,
        ...(standard ? { insurer: INSURER } : {})
      }
    ],
    agent: request.agent,
    privacy: { policy_href: `${publicUrl}/privacy-policy` }
  }
}

const expiresAt = (createdAt) => createdAt + THIRTY_DAYS_MS

/** A quote awaiting activation as the service answers it: its content, state and expiry. */
export const awaitingAnswer = (content, createdAt) => ({
  ...content,
  status: "await_activation",
  expires_at: new Date(expiresAt(createdAt)).toISOString()
})

/** The quote as GET answers it (spec §2.9, §2.10) from its stored row, or undefined once expired. */
export const answerOf = (row, now) => {
  if (now >= expiresAt(row.created_at)) return undefined
  const content = JSON.parse(row.quote_json)
  const awaiting = awaitingAnswer(content, row.created_at)
  if (row.activated_at === null) return awaiting
  return {
    ...awaiting,
    status: "activated",
    polices: content.policies,
    quote_number: row.quote_number,
    created_at: new Date(row.created_at).toISOString(),
    activated_at: new Date(row.activated_at).toISOString()
  }
}

export const newActivation = () => ({ quoteNumber: newQuoteNumber() })

/** An outbox row: the event and, as its payload, the quote as GET answers it at that moment. */
export const eventOf = (type, partnerId, quoteId, occurredAt, answer) => {
  const event_id = `evt_${quoteId}_${type.slice("quote.".length)}`
  return {
    event_id,
    type,
    partner_id: partnerId,
    quote_id: quoteId,
    occurred_at: occurredAt,
    payload: JSON.stringify({
      id: event_id,
      type,
      occurred_at: new Date(occurredAt).toISOString(),
      partner_id: partnerId,
      quote_id: quoteId,
      data: answer
    })
  }
}
