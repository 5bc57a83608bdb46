// The HTTP section's hand-written rival (rival/): its data directory set up to accept the bench partner's
// token and subscription key, and a check, before any load, that it answers what kasko answers.
import { Examples } from "@kasko/core"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { rivalPublicKey, rivalDatabase } from "./rival/server.mjs"
import { openStore } from "./rival/store.mjs"

/**
 * A data directory for the rival beside kasko's: the public half of kasko's token signing key (the
 * issuer's key, which any verifier holds) and the bench partner with the SHA-256 of the same subscription key.
 */
export const prepareRivalDirectory = (kaskoDirectory, headers) => {
  const directory = join(kaskoDirectory, "rival")
  mkdirSync(directory)
  const { d: _private, ...publicJwk } = JSON.parse(readFileSync(join(kaskoDirectory, "signing-key.json"), "utf8"))
  writeFileSync(rivalPublicKey(directory), JSON.stringify(publicJwk))
  const store = openStore(rivalDatabase(directory))
  store.addPartner({
    partnerId: "bench-partner",
    name: "Bench Partner A/S",
    subscriptionKey: headers["ocp-apim-subscription-key"]
  })
  store.close()
  return directory
}

const leasing = "insurance-car-leasing"
const standalone = "insurance-car-standalone"
const business = { policy_holder: "organization", vehicle_user: "organization", vehicle_usage: "godstransport" }

/** Requests across both products, both variants, both features and both payment rhythms. */
const checkedRequests = (benchOffer, benchQuote) => [
  ...[
    benchOffer,
    Examples.offerRequest(Examples.standardParameters({ payments_per_year: "12" }), standalone, "premium"),
    Examples.offerRequest(Examples.standardParameters(business), leasing, "premium")
  ].map((body) => ({ path: "/insurance/car/offers", body })),
  ...[
    benchQuote,
    Examples.quoteRequest(Examples.standardParameters({ payments_per_year: "12", youngest_user_age: "19" }), leasing),
    Examples.quoteRequest(Examples.standardParameters({ ...business, payments_per_year: "12" }), standalone, "premium"),
    Examples.quoteRequest(Examples.standardParameters({ ...business, vehicle_type: "varevogn" }), leasing)
  ].map((body) => ({ path: "/insurance/car/quotes", body }))
]

/** An answer with what differs by design blanked: the new quote's ids, its expiry, the service's own origin. */
const comparable = (text, origin) =>
  JSON.parse(text.replaceAll(origin, "ORIGIN"), (key, value) =>
    key === "quote_id" || key === "policy_number" || key === "expires_at" ? "…" : value
  )

const post = async (url, headers, body) => {
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) })
  return { status: response.status, text: await response.text() }
}

const get = async (url, headers) => {
  const response = await fetch(url, { headers })
  return { status: response.status, text: await response.text() }
}

/**
 * Throws unless the rival answers every checked request 200 with kasko's answer (ids, expiry and origin
 * aside), and a quote it created reads back as created. Resolves to one quote id the rival holds.
 */
export const checkRivalMatchesKasko = async (kaskoUrl, rivalUrl, headers, benchOffer, benchQuote) => {
  const originOf = (url) => `http://localhost:${new URL(url).port}`
  let rivalQuoteId
  for (const { path, body } of checkedRequests(benchOffer, benchQuote)) {
    const [kasko, rival] = await Promise.all([
      post(kaskoUrl + path, headers, body),
      post(rivalUrl + path, headers, body)
    ])
    if (kasko.status !== 200 || rival.status !== 200)
      throw new Error(`${path}: kasko answered ${kasko.status}, the rival ${rival.status}: ${rival.text}`)
    // the same members in the same order: the same bytes on the wire, but for the ids
    const [expected, actual] = [comparable(kasko.text, originOf(kaskoUrl)), comparable(rival.text, originOf(rivalUrl))]
    if (JSON.stringify(expected) !== JSON.stringify(actual) || kasko.text.length !== rival.text.length)
      throw new Error(`${path}: the rival answers differently from kasko\nkasko: ${kasko.text}\nrival: ${rival.text}`)
    if (path.endsWith("/quotes")) {
      const id = JSON.parse(rival.text).quote_id
      const read = await get(`${rivalUrl}${path}/${id}`, headers)
      if (read.status !== 200 || read.text !== rival.text)
        throw new Error(`the rival's GET ${path}/${id} answered ${read.status}: ${read.text}`)
      rivalQuoteId ??= id
    }
  }
  return rivalQuoteId
}
