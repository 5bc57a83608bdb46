/**
 * Text hygiene (issue: hostile network): strings are stored NFC-normalised, and
 * control characters, unpaired surrogates and bidirectional overrides in any
 * request string are violations naming the field.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { decodeQuoteRequest } from "../src/quote/QuoteRequest.js"
import { cleanText } from "../src/input/RequestText.js"
import { quoteRequest } from "./support.js"

const PRICING_DATE = "2026-03-02"

const withField = (mutate: (request: any) => void) => {
  const request = structuredClone(quoteRequest()) as any
  mutate(request)
  return decodeQuoteRequest(request, PRICING_DATE)
}

describe("text in a quote request", () => {
  it("is stored NFC-normalised: a decomposed å becomes one character", () => {
    const decoded = withField((request) => {
      request.policy.parties[0].address.city = "A\u030Arhus C"
      request.policy.parties[0].person.last_name = "Kierkega\u030Ard"
    })
    const party = Result.getOrThrow(decoded).policy.parties[0]!
    expect(party.address?.city).toBe("\u00C5rhus C")
    expect(party.person?.last_name).toBe("Kierkeg\u00E5rd")
  })

  it("counts a decomposed name by its characters after normalising it", () => {
    // 100 characters once composed, 200 as sent: within first_name's 100
    const decoded = withField((request) => (request.policy.parties[0].person.first_name = "a\u030A".repeat(100)))
    expect(Result.isSuccess(decoded)).toBe(true)
  })

  it.each([
    [
      "a NUL",
      "policy.parties[0].person.first_name",
      "Sø\u0000ren",
      "must not contain control characters or bidirectional overrides"
    ],
    ["a line feed", "policy.brand_id", "brand\n1", "must not contain control characters or bidirectional overrides"],
    [
      "a C1 control",
      "policy.insurable_object.vehicle.model",
      "Enyaq\u0085",
      "must not contain control characters or bidirectional overrides"
    ],
    [
      "a right-to-left override",
      "policy.brand_id",
      "brand\u202E1-",
      "must not contain control characters or bidirectional overrides"
    ],
    [
      "a left-to-right isolate",
      "agent.user_id",
      "\u2066agent-7\u2069",
      "must not contain control characters or bidirectional overrides"
    ],
    [
      "an unpaired high surrogate",
      "agent.user_id",
      "agent\uD800",
      "must not contain unpaired surrogates (malformed UTF-16)"
    ],
    [
      "an unpaired low surrogate",
      "policy.parties[0].address.street",
      "\uDC00vej",
      "must not contain unpaired surrogates (malformed UTF-16)"
    ],
    [
      "a control character in a parameter",
      "product.parameters.vehicle_price",
      "2000\u000000",
      "must not contain control characters or bidirectional overrides"
    ]
  ])("refuses %s in %s, naming the field once", (_what, field, value, message) => {
    const decoded = withField((request) => {
      const path = field.replace(/\[(\d+)\]/g, ".$1").split(".")
      let target = request
      for (const key of path.slice(0, -1)) target = target[key]
      target[path.at(-1)!] = value
    })
    expect(Result.isFailure(decoded) && decoded.failure.violations).toEqual([{ field, message }])
  })

  it("accepts a tab inside free text, and letters from any script", () => {
    const decoded = withField((request) => {
      request.policy.insurable_object.vehicle.variant = "80\tiV"
      request.policy.parties[0].person.first_name = "Zoë 李 𝔨"
    })
    expect(Result.isSuccess(decoded)).toBe(true)
  })

  it("reports a refused string together with the request's other violations", () => {
    const decoded = withField((request) => {
      request.policy.brand_id = "x\u202E"
      request.product.parameters.vehicle_price = "12"
    })
    expect(Result.isFailure(decoded) && decoded.failure.violations).toEqual([
      { field: "policy.brand_id", message: "must not contain control characters or bidirectional overrides" },
      { field: "product.parameters.vehicle_price", message: "must be between 1000 and 10000000" }
    ])
  })
})

describe("cleanText", () => {
  it("leaves plain input as the very same value: nothing is copied", () => {
    const input = { a: ["plain", { b: "text\twith tab" }], c: 1 }
    expect(cleanText(input).input).toBe(input)
  })

  it("names a field whose name carries a control character", () => {
    expect(cleanText({ policy: { "brand\u0000id": "x" } }).violations).toEqual([
      {
        field: "policy.brand\u0000id",
        message: "is a field name that contains control characters or bidirectional overrides"
      }
    ])
  })
})
