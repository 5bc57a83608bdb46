/**
 * Every validation rule of DESIGN §2, each asserting the field path the client
 * sent, and that one request's violations are all reported together.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { Violation } from "../src/Errors.js"
import { decodeOfferRequest } from "../src/quote/Offer.js"
import { decodeQuoteRequest } from "../src/quote/QuoteRequest.js"
import { offerRequest, quoteRequest, standardParameters, type Parameters } from "./support.js"

const PRICING_DATE = "2026-03-02"

const offerViolations = (input: unknown): ReadonlyArray<Violation> =>
  Result.match(decodeOfferRequest(input, PRICING_DATE), { onFailure: (error) => error.violations, onSuccess: () => [] })

const quoteViolations = (input: unknown): ReadonlyArray<Violation> =>
  Result.match(decodeQuoteRequest(input, PRICING_DATE), { onFailure: (error) => error.violations, onSuccess: () => [] })

const parameterViolations = (parameters: Record<string, unknown>) =>
  offerViolations(offerRequest(parameters as Parameters))

const withParameter = (name: string, value: unknown) => ({ ...standardParameters(), [name]: value })
const without = (name: string) => {
  const { [name]: _removed, ...rest } = standardParameters()
  return rest
}

describe("parameter validation", () => {
  it("accepts a complete Standard parameter set", () => {
    expect(parameterViolations(standardParameters())).toEqual([])
  })

  it.each([
    ["policy_holder", "company"],
    ["vehicle_type", "lastbil"],
    ["vehicle_user", "Person"],
    ["vehicle_owner", ""],
    ["vehicle_usage", "godstransport_privat"],
    ["payments_per_year", "6"]
  ])("rejects %s = %j as not one of its options", (name, value) => {
    expect(parameterViolations(withParameter(name, value))).toEqual([
      { field: `product.parameters.${name}`, message: expect.stringMatching(/^must be one of: /) }
    ])
  })

  it.each(["12a", "-5000", "1.5", "", " 5000", "1e6"])(
    "rejects vehicle_price %j as not a string of digits",
    (value) => {
      expect(parameterViolations(withParameter("vehicle_price", value))).toEqual([
        { field: "product.parameters.vehicle_price", message: "must be a string of digits" }
      ])
    }
  )

  it.each(["999", "10000001", "0"])("rejects vehicle_price %s outside 1 000–10 000 000", (value) => {
    expect(parameterViolations(withParameter("vehicle_price", value))).toEqual([
      { field: "product.parameters.vehicle_price", message: "must be between 1000 and 10000000" }
    ])
  })

  it.each(["1000", "10000000"])("accepts vehicle_price %s at the edge of the range", (value) => {
    expect(parameterViolations(withParameter("vehicle_price", value))).toEqual([])
  })

  it.each([350000, null, true])("rejects a vehicle_price sent as JSON %j instead of a string", (value) => {
    expect(parameterViolations(withParameter("vehicle_price", value))).toEqual([
      { field: "product.parameters.vehicle_price", message: "must be a JSON string" }
    ])
  })

  it.each([
    ["16", "must be between 17 and 99"],
    ["100", "must be between 17 and 99"],
    ["twenty", "must be a string of digits"]
  ])("rejects youngest_user_age %s", (value, message) => {
    expect(parameterViolations(withParameter("youngest_user_age", value))).toEqual([
      { field: "product.parameters.youngest_user_age", message }
    ])
  })

  it.each(["2001-02-29", "2001-13-01", "2001-04-31", "01-01-2001", "2001-1-1"])(
    "rejects youngest_user_birthdate %s as not a real YYYY-MM-DD date",
    (value) => {
      expect(parameterViolations(withParameter("youngest_user_birthdate", value))).toEqual([
        { field: "product.parameters.youngest_user_birthdate", message: "must be a real date in the form YYYY-MM-DD" }
      ])
    }
  )

  it.each([
    ["2009-03-03", "16 on the pricing date"],
    ["1926-03-02", "100 on the pricing date"]
  ])("rejects a birth date %s that makes the driver %s", (value) => {
    expect(parameterViolations(withParameter("youngest_user_birthdate", value))).toEqual([
      {
        field: "product.parameters.youngest_user_birthdate",
        message: "must make the youngest driver 17–99 years old on 2026-03-02"
      }
    ])
  })

  it.each(["2009-03-02", "1926-03-03"])("accepts a birth date %s that makes the driver exactly 17 or 99", (value) => {
    expect(parameterViolations(withParameter("youngest_user_birthdate", value))).toEqual([])
  })

  it("rejects both youngest-user fields when they disagree, and accepts them when they agree", () => {
    expect(
      parameterViolations({ ...standardParameters(), youngest_user_age: "30", youngest_user_birthdate: "2000-01-01" })
    ).toEqual([
      {
        field: "product.parameters.youngest_user_birthdate",
        message: "disagrees with youngest_user_age: the birth date gives age 26 on 2026-03-02"
      }
    ])
    expect(
      parameterViolations({ ...standardParameters(), youngest_user_age: "26", youngest_user_birthdate: "2000-01-01" })
    ).toEqual([])
  })

  it("rejects an unknown parameter name", () => {
    expect(parameterViolations(withParameter("vehicle_colour", "red"))).toEqual([
      { field: "product.parameters.vehicle_colour", message: "is not a known field" }
    ])
  })

  it.each(["policy_holder", "vehicle_type", "vehicle_user", "vehicle_owner", "vehicle_usage", "vehicle_price"])(
    "requires %s",
    (name) => {
      expect(parameterViolations(without(name))).toEqual([
        { field: `product.parameters.${name}`, message: "is required" }
      ])
    }
  )

  it("defaults payments_per_year to 1", () => {
    const decoded = decodeOfferRequest(offerRequest(without("payments_per_year")), PRICING_DATE)
    expect(Result.getOrThrow(decoded).product.parameters["payments_per_year"]).toBe("1")
  })

  it("reports every violation of one request together, each with its field path", () => {
    const violations = offerViolations({
      product: {
        product_name: "insurance-car-bicycle",
        parameters: {
          policy_holder: "company",
          vehicle_type: "personbil",
          vehicle_owner: "organization",
          vehicle_usage: "privat_person_koersel",
          vehicle_price: "12",
          youngest_user_age: "30",
          youngest_user_birthdate: "2000-01-01",
          colour: "red"
        },
        features: [{ name: "gold" }]
      },
      campaign: "spring"
    })
    expect(violations).toEqual(
      expect.arrayContaining([
        { field: "campaign", message: "is not a known field" },
        { field: "product.product_name", message: "must be one of: insurance-car-leasing, insurance-car-standalone" },
        { field: "product.parameters.colour", message: "is not a known field" },
        { field: "product.parameters.policy_holder", message: "must be one of: person, organization" },
        { field: "product.parameters.vehicle_user", message: "is required" },
        { field: "product.parameters.vehicle_price", message: "must be between 1000 and 10000000" },
        { field: "product.parameters.youngest_user_birthdate", message: expect.stringContaining("disagrees") },
        { field: "product.features[0].name", message: "must be one of: standard, premium" }
      ])
    )
    expect(violations).toHaveLength(8)
  })

  it.each([
    ["a string body", "hello", "body", "must be a JSON object"],
    ["an array body", [], "body", "must be a JSON object"],
    ["a product that is not an object", { product: 7 }, "product", "must be a JSON object"],
    [
      "parameters that are not an object",
      { product: { product_name: "insurance-car-leasing", parameters: "x", features: [{ name: "standard" }] } },
      "product.parameters",
      "must be a JSON object"
    ],
    [
      "features that are not an array",
      { product: { product_name: "insurance-car-leasing", parameters: standardParameters(), features: "standard" } },
      "product.features",
      "must be a JSON array"
    ],
    [
      "two features",
      {
        product: {
          product_name: "insurance-car-leasing",
          parameters: standardParameters(),
          features: [{ name: "standard" }, { name: "premium" }]
        }
      },
      "product.features",
      "must hold exactly one feature"
    ],
    ["no product", {}, "product", "is required"]
  ])("rejects %s", (_name, input, field, message) => {
    expect(offerViolations(input)).toEqual([{ field, message }])
  })
})

describe("quote request validation", () => {
  const request = () => structuredClone(quoteRequest())

  it("accepts the reference quote request", () => {
    expect(quoteViolations(request())).toEqual([])
  })

  it.each([
    ["policy.parties[0].person.cpr_number", "3102901234", "must be 10 digits starting with a real date (DDMMYY)"],
    ["policy.parties[0].person.cpr_number", "010190123", "must be 10 digits starting with a real date (DDMMYY)"],
    ["policy.parties[1].organization.cvr_number", "12345678", "must be 8 digits passing the CVR modulus-11 check"],
    ["agent.organization.cvr_number", "1234567", "must be 8 digits passing the CVR modulus-11 check"],
    ["agent.organization.cvrp_number", "12345", "must be a P-number of 10 digits"],
    ["policy.parties[0].address.postal_code", 554, "must be a Danish postal code, 0555–9990"],
    ["policy.parties[0].address.postal_code", 9991, "must be a Danish postal code, 0555–9990"],
    ["policy.parties[0].address.postal_code", "8000", "must be an integer"],
    [
      "policy.insurable_object.vehicle.vin",
      "TMBJB7NY5MF01234O",
      "must be 17 capital letters and digits, without I, O and Q"
    ],
    [
      "policy.insurable_object.vehicle.vin",
      "TMBJB7NY5MF0123",
      "must be 17 capital letters and digits, without I, O and Q"
    ],
    ["policy.expected_effective_at", "2026-02-30", "must be a real date in the form YYYY-MM-DD"],
    ["policy.expected_effective_at", "2026-03-01", "must not be before 2026-03-02"],
    ["policy.parties[0].email", "not-an-address", "must be an e-mail address"],
    ["policy.brand_id", "   ", "must not be blank"],
    ["agent.user_id", "x".repeat(101), "must be at most 100 characters"]
  ])("rejects %s = %j", (field, value, message) => {
    const input = request() as Record<string, any>
    const path = field.replace(/\[(\d+)\]/g, ".$1").split(".")
    let target = input
    for (const key of path.slice(0, -1)) target = target[key]
    target[path.at(-1)!] = value
    expect(quoteViolations(input)).toEqual([{ field, message }])
  })

  it("accepts the CPR number of a person born on 29 February 2004 (seventh digit 4)", () => {
    const input = request() as any
    input.policy.parties[0].person.cpr_number = "2902044123"
    expect(quoteViolations(input)).toEqual([])
  })

  it("rejects an unknown field a client tries to set, such as status or price", () => {
    expect(quoteViolations({ ...request(), status: "activated", price: { amount: 1 } })).toEqual([
      { field: "status", message: "is not a known field" },
      { field: "price", message: "is not a known field" }
    ])
  })

  it("requires product, policy and agent", () => {
    expect(quoteViolations({})).toEqual([
      { field: "product", message: "is required" },
      { field: "policy", message: "is required" },
      { field: "agent", message: "is required" }
    ])
  })
})

describe("role rules", () => {
  it("rejects a vehicle_owner parameter of person: the owner is always the partner organization", () => {
    const input = quoteRequest(standardParameters({ vehicle_owner: "person" }))
    expect(quoteViolations(input)).toContainEqual({
      field: "product.parameters.vehicle_owner",
      message: "must be organization: the vehicle owner is always the partner organization"
    })
  })

  it("names the party field that is missing for its role", () => {
    const input = quoteRequest(standardParameters({ policy_holder: "organization" }))
    // the person party holds the policy although the parameter says organization
    input.policy.parties[0]!.policy_holder = true
    input.policy.parties[1]!.policy_holder = true
    expect(quoteViolations(input)).toEqual([
      {
        field: "policy.parties[0].organization",
        message: "is required: the party is policy_holder and product.parameters.policy_holder is organization"
      }
    ])
  })

  it("requires at least one party for every role", () => {
    const input = quoteRequest()
    input.policy.parties.pop() // the organization party, the only vehicle owner
    expect(quoteViolations(input)).toEqual([
      { field: "policy.parties", message: "must include a party with vehicle_owner: true" }
    ])
  })

  it("rejects a party with no role, and a party that is neither person nor organization", () => {
    const input = quoteRequest() as any
    input.policy.parties.push({ phone: "12345678" })
    expect(quoteViolations(input)).toEqual([
      {
        field: "policy.parties[2]",
        message: "must have at least one role: policy_holder, vehicle_user, vehicle_owner"
      },
      { field: "policy.parties[2]", message: "must carry a person or an organization" }
    ])
  })

  it("reports role violations together with field violations", () => {
    const input = quoteRequest(standardParameters({ vehicle_user: "organization", vehicle_price: "5" })) as any
    input.policy.parties[0].vehicle_user = true
    input.policy.parties[0].person.cpr_number = "x"
    expect(quoteViolations(input)).toEqual(
      expect.arrayContaining([
        { field: "product.parameters.vehicle_price", message: "must be between 1000 and 10000000" },
        {
          field: "policy.parties[0].person.cpr_number",
          message: "must be 10 digits starting with a real date (DDMMYY)"
        },
        {
          field: "policy.parties[0].organization",
          message: "is required: the party is vehicle_user and product.parameters.vehicle_user is organization"
        }
      ])
    )
  })
})
