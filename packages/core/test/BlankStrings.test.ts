/**
 * Blank strings (DESIGN §2): partner systems send `""` or spaces for optional
 * fields they have no value for. Every optional string of the quote request
 * treats a blank value as absent; a blank required string is a violation
 * naming the field. The tables are checked against the request Schema itself,
 * so a new string field cannot be added without deciding which it is.
 */
import { Result, Schema, SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { decodeQuoteRequest, QuoteRequest } from "../src/quote/QuoteRequest.js"
import { quoteRequest } from "./support.js"

const PRICING_DATE = "2026-03-02"

const OPTIONAL_STRINGS = [
  "product.parameters.payments_per_year",
  "product.parameters.youngest_user_age",
  "product.parameters.youngest_user_birthdate",
  "policy.external_reference",
  "policy.insurable_object.vehicle.variant",
  "policy.insurable_object.vehicle.vin",
  "policy.insurable_object.vehicle.registration_number",
  "policy.parties[0].phone",
  "policy.parties[0].email",
  "policy.parties[0].address.floor",
  "policy.parties[0].address.door",
  "agent.organization.cvrp_number"
]

const REQUIRED_STRINGS = [
  "product.product_name",
  "product.parameters.policy_holder",
  "product.parameters.vehicle_type",
  "product.parameters.vehicle_user",
  "product.parameters.vehicle_owner",
  "product.parameters.vehicle_usage",
  "product.parameters.vehicle_price",
  "product.features[0].name",
  "policy.brand_id",
  "policy.expected_effective_at",
  "policy.insurable_object.vehicle.make",
  "policy.insurable_object.vehicle.model",
  "policy.parties[0].person.cpr_number",
  "policy.parties[0].person.first_name",
  "policy.parties[0].person.last_name",
  "policy.parties[0].organization.name",
  "policy.parties[0].organization.cvr_number",
  "policy.parties[0].address.street",
  "policy.parties[0].address.house_number",
  "policy.parties[0].address.city",
  "agent.user_id",
  "agent.organization.name",
  "agent.organization.cvr_number"
]

/** Every string field of the request as the client sends it, with whether it is optional. */
const stringFieldsOf = (ast: SchemaAST.AST, path: string): Array<{ path: string; optional: boolean }> => {
  switch (ast._tag) {
    case "Arrays":
      return ast.rest.flatMap((element) => stringFieldsOf(element, `${path}[0]`))
    case "Objects":
      return ast.propertySignatures.flatMap((property) => {
        const name = `${path === "" ? "" : `${path}.`}${String(property.name)}`
        const inner = isStringy(property.type) ? [{ path: name, optional: SchemaAST.isOptional(property.type) }] : []
        return [...inner, ...stringFieldsOf(property.type, name)]
      })
    default:
      return []
  }
}

const isStringy = (ast: SchemaAST.AST): boolean => {
  switch (ast._tag) {
    case "String":
      return true
    case "Literal":
      return typeof ast.literal === "string"
    case "Union":
      return ast.types.every(isStringy)
    default:
      return false
  }
}

/** A request whose first party carries every field a party may: person, organization, phone, e-mail and address. */
const fullRequest = () => {
  const request = structuredClone(quoteRequest()) as any
  request.policy.parties[0].organization = { name: "Kierkegård Holding ApS", cvr_number: "12345674" }
  request.product.parameters.youngest_user_birthdate = "2000-05-17"
  request.product.parameters.youngest_user_age = "25"
  return request
}

const segmentsOf = (path: string) => path.replace(/\[(\d+)\]/g, ".$1").split(".")

const setAt = (value: any, path: string, to: unknown) => {
  const segments = segmentsOf(path)
  let target = value
  for (const segment of segments.slice(0, -1)) target = target[segment]
  target[segments.at(-1)!] = to
  return value
}

const getAt = (value: any, path: string): unknown =>
  segmentsOf(path).reduce((target, segment) => target?.[segment], value)

describe("blank strings in a quote request", () => {
  it("lists every string field of the request, optional and required", () => {
    const fields = stringFieldsOf(Schema.toEncoded(QuoteRequest).ast, "")
    expect(
      fields
        .filter((field) => field.optional)
        .map((field) => field.path)
        .sort()
    ).toEqual([...OPTIONAL_STRINGS].sort())
    expect(
      fields
        .filter((field) => !field.optional)
        .map((field) => field.path)
        .sort()
    ).toEqual([...REQUIRED_STRINGS].sort())
  })

  it("accepts the full request the tables start from, with every optional string present", () => {
    const decoded = Result.getOrThrow(decodeQuoteRequest(fullRequest(), PRICING_DATE))
    for (const path of OPTIONAL_STRINGS) expect(getAt(fullRequest(), path), path).toEqual(expect.any(String))
    expect(getAt(decoded, "policy.parties[0].address.floor")).toBe("2")
  })

  describe.each(["", " ", "  \t "])("an optional string sent as %j", (blank) => {
    it.each(OPTIONAL_STRINGS)("counts as absent: %s", (path) => {
      const decoded = decodeQuoteRequest(setAt(fullRequest(), path, blank), PRICING_DATE)
      expect(Result.isSuccess(decoded) ? "accepted" : decoded.failure.violations).toBe("accepted")
      const value = getAt(Result.getOrThrow(decoded), path)
      // payments_per_year has a default: absent means "1", its default option
      expect(value).toBe(path.endsWith("payments_per_year") ? "1" : undefined)
    })
  })

  it.each(REQUIRED_STRINGS)("answers a violation naming %s when it is blank", (path) => {
    const decoded = decodeQuoteRequest(setAt(fullRequest(), path, "  "), PRICING_DATE)
    expect(Result.isFailure(decoded)).toBe(true)
    if (Result.isFailure(decoded))
      expect(decoded.failure.violations.map((violation) => violation.field)).toContain(path)
  })

  it("reports a bad optional string together with every other violation of the request", () => {
    const request = setAt(
      setAt(
        setAt(fullRequest(), "product.parameters.vehicle_price", "12"),
        "product.parameters.youngest_user_age",
        "9"
      ),
      "policy.parties[0].email",
      "nope"
    )
    const decoded = decodeQuoteRequest(request, PRICING_DATE)
    expect(Result.isFailure(decoded) && decoded.failure.violations).toEqual([
      { field: "product.parameters.vehicle_price", message: "must be between 1000 and 10000000" },
      { field: "product.parameters.youngest_user_age", message: "must be between 17 and 99" },
      { field: "policy.parties[0].email", message: "must be an e-mail address" }
    ])
  })

  it("still refuses a blank optional string longer than the field may be", () => {
    const decoded = decodeQuoteRequest(
      setAt(fullRequest(), "policy.parties[0].address.floor", " ".repeat(11)),
      PRICING_DATE
    )
    expect(Result.isFailure(decoded) && decoded.failure.violations).toEqual([
      { field: "policy.parties[0].address.floor", message: "must be at most 10 characters" }
    ])
  })
})
