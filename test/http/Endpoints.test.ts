/**
 * The service end to end: the real server on an ephemeral port with a
 * temporary SQLite file, driven over HTTP. Every answer is also checked
 * against the served OpenAPI document (support.ts).
 */
import { Examples } from "@kasko/core"
import { ProductCatalogue } from "@kasko/core/transport"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { asPartner, makeClient, startTestService, type TestService } from "./support.js"

const DAY = 24 * 60 * 60 * 1000
const PROBLEM = "application/problem+json"

let server: TestService
let client: Awaited<ReturnType<typeof makeClient>>

beforeAll(async () => {
  server = await startTestService()
  client = await makeClient(server.url)
})
afterAll(async () => {
  await server.stop()
})

const createQuote = async (request: unknown = Examples.quoteRequest(), partner = "partner-a") =>
  client.request("POST", "/insurance/car/quotes", { body: request, headers: asPartner(partner) })

const expectProblem = (answer: { status: number; headers: Headers; body: any }, status: number, title: string) => {
  expect(answer.status).toBe(status)
  expect(answer.headers.get("content-type")).toContain(PROBLEM)
  expect(answer.body).toMatchObject({ type: expect.stringMatching(/^https:\/\//), title, status })
}

describe("endpoint 1: GET /products/{product_name}", () => {
  it.each(ProductCatalogue.PRODUCT_NAMES)("answers the definition of %s", async (name) => {
    const answer = await client.request("GET", `/products/${name}`, { headers: { "accept-language": "da-DK" } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get("content-type")).toContain("application/json")
    expect(answer.body).toEqual(ProductCatalogue.productDefinition(name))
  })

  it("answers 404 problem+json for an unknown product", async () => {
    expectProblem(await client.request("GET", "/products/insurance-boat"), 404, "Not Found")
  })
})

describe("endpoint 2: POST /insurance/car/offers", () => {
  it("prices an offer from the product selection alone", async () => {
    const answer = await client.request("POST", "/insurance/car/offers", { body: Examples.offerRequest() })
    expect(answer.status).toBe(200)
    // reference tariff case 1: 7 599.55 kr → 7 600 a year, 665 a month
    expect(answer.body.price).toEqual({ annually: 7600, monthly: 665 })
    expect(answer.body.product.product_name).toBe("insurance-car-leasing")
    expect(answer.headers.get("cache-control")).toBe("no-store")
  })

  it("answers 400 with every violation named by field", async () => {
    const answer = await client.request("POST", "/insurance/car/offers", {
      body: Examples.offerRequest(Examples.standardParameters({ vehicle_price: "12", youngest_user_age: "9" }))
    })
    expectProblem(answer, 400, "Constraint Violation")
    expect(answer.body.violations).toEqual([
      { field: "product.parameters.vehicle_price", message: "must be between 1000 and 10000000" },
      { field: "product.parameters.youngest_user_age", message: "must be between 17 and 99" }
    ])
  })

  it("prices the body of a quote request too: policy and agent are accepted and ignored", async () => {
    const offer = await client.request("POST", "/insurance/car/offers", { body: Examples.offerRequest() })
    const fromQuoteBody = await client.request("POST", "/insurance/car/offers", { body: Examples.quoteRequest() })
    expect(fromQuoteBody.status).toBe(200)
    expect(fromQuoteBody.text).toBe(offer.text)
  })

  it("still answers 400 naming any other unknown member", async () => {
    const answer = await client.request("POST", "/insurance/car/offers", {
      body: { ...Examples.quoteRequest(), customer: { name: "x" } }
    })
    expectProblem(answer, 400, "Constraint Violation")
    expect(answer.body.violations).toEqual([{ field: "customer", message: "is not a known field" }])
  })

  it("treats a blank optional parameter as absent", async () => {
    const offer = await client.request("POST", "/insurance/car/offers", { body: Examples.offerRequest() })
    const blank = await client.request("POST", "/insurance/car/offers", {
      body: Examples.offerRequest(Examples.standardParameters({ youngest_user_age: "", youngest_user_birthdate: " " }))
    })
    expect(blank.status).toBe(200)
    expect(blank.text).toBe(offer.text)
  })
})

describe("endpoints 3–5: quotes and their states (spec §3)", () => {
  it("creates a quote, retrieves it unchanged, activates it, and then answers the activated form", async () => {
    const created = await createQuote()
    expect(created.status).toBe(200)
    expect(created.headers.get("cache-control")).toBe("no-store")
    expect(created.body.quote_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(created.body.price).toMatchObject({ amount: 7600, currency: "DKK", payments_per_year: 1 })
    expect(created.body.price.details).toEqual({
      skadesforsikringsafgift: "53.35",
      garantifondsbidrag: "40.00",
      miljøbidrag: "84.00"
    })
    // every quote answer says its state and until when it exists (issue 30), after the spec's fields
    expect(Object.keys(created.body).slice(-2)).toEqual(["status", "expires_at"])
    expect(created.body.status).toBe("await_activation")

    const retrieved = await client.request("GET", `/insurance/car/quotes/${created.body.quote_id}`)
    expect(retrieved.status).toBe(200)
    expect(retrieved.text).toBe(created.text)
    expect(retrieved.headers.get("cache-control")).toBe("no-store")

    // spec §3, §4 endpoint 5: an empty JSON object, exactly
    const activation = await client.request("POST", `/insurance/car/quotes/${created.body.quote_id}/activation`)
    expect(activation.status).toBe(200)
    expect(activation.text).toBe("{}")
    expect(activation.headers.get("content-type")).toBe("application/json; charset=utf-8")
    expect(activation.headers.get("preference-applied")).toBeNull()

    const activated = await client.request("GET", `/insurance/car/quotes/${created.body.quote_id}`)
    expect(activated.status).toBe(200)
    const { quote_number, created_at, activated_at, polices, ...rest } = activated.body
    expect(rest).toEqual({ ...created.body, status: "activated" })
    // valid 30 days from its creation (spec §1)
    expect(Date.parse(created.body.expires_at) - Date.parse(created_at)).toBe(30 * 24 * 60 * 60 * 1000)
    expect(created.body.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    // the spelling of the specification's activated example, same content as `policies`
    expect(polices).toEqual(created.body.policies)
    expect(quote_number).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/)
    expect(created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(activated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  })

  it("accepts blank optional strings (floor, door, phone, …) and registers the party without them", async () => {
    const request = Examples.quoteRequest() as any
    Object.assign(request.policy.parties[0].address, { floor: "", door: "  " })
    request.policy.parties[0].phone = ""
    request.agent.organization.cvrp_number = " "
    const created = await createQuote(request)
    expect(created.status).toBe(200)
    const party = created.body.policies[0].parties[0]
    expect(party.address).toEqual({ street: "Æblevej", house_number: "7", postal_code: 8000, city: "Aarhus C" })
    expect(party).not.toHaveProperty("phone")
    expect(created.body.agent.organization).not.toHaveProperty("cvrp_number")
  })

  it("activates idempotently: a second activation answers 200 with the same body and changes nothing", async () => {
    const created = await createQuote()
    const activation = await client.request("POST", `/insurance/car/quotes/${created.body.quote_id}/activation`)
    const first = await client.request("GET", `/insurance/car/quotes/${created.body.quote_id}`)
    const again = await client.request("POST", `/insurance/car/quotes/${created.body.quote_id}/activation`)
    expect(again.status).toBe(200)
    expect(again.text).toBe("{}")
    expect(again.text).toBe(activation.text)
    expect((await client.request("GET", `/insurance/car/quotes/${created.body.quote_id}`)).text).toBe(first.text)
  })

  it("answers activation with the quote's state and expiry to Prefer: return=representation (RFC 7240)", async () => {
    const created = await createQuote()
    const path = `/insurance/car/quotes/${created.body.quote_id}/activation`
    const prefer = { headers: { prefer: "return=representation" } }
    for (const activation of [await client.request("POST", path, prefer), await client.request("POST", path, prefer)]) {
      expect(activation.status).toBe(200)
      expect(activation.body).toEqual({ status: "activated", expires_at: created.body.expires_at })
      expect(activation.headers.get("preference-applied")).toBe("return=representation")
    }
    // another preference is not honoured: the minimal answer, and no Preference-Applied
    const minimal = await client.request("POST", path, { headers: { prefer: "return=minimal" } })
    expect(minimal.text).toBe("{}")
    expect(minimal.headers.get("preference-applied")).toBeNull()
  })

  it("answers 400 naming the party field when the roles do not fit the parameters", async () => {
    const request = Examples.quoteRequest(Examples.standardParameters({ policy_holder: "organization" }))
    request.policy.parties[0]!.policy_holder = true
    const answer = await createQuote(request)
    expectProblem(answer, 400, "Constraint Violation")
    expect(answer.body.violations).toContainEqual({
      field: "policy.parties[0].organization",
      message: "is required: the party is policy_holder and product.parameters.policy_holder is organization"
    })
  })

  it.each(["status", "price", "created_at", "quote_id"])(
    "rejects a client-sent %s, and stores nothing",
    async (field) => {
      const answer = await createQuote({ ...Examples.quoteRequest(), [field]: "activated" })
      expectProblem(answer, 400, "Constraint Violation")
      expect(answer.body.violations).toEqual([{ field, message: "is not a known field" }])
    }
  )

  it("answers 404 for an unknown, a malformed, and another partner's quote id — to retrieve and to activate", async () => {
    const created = await createQuote()
    for (const [id, partner] of [
      ["0190a000-0000-7000-8000-000000000000", "partner-a"],
      ["not-a-uuid", "partner-a"],
      [created.body.quote_id, "partner-b"]
    ]) {
      const headers = asPartner(partner!)
      expectProblem(await client.request("GET", `/insurance/car/quotes/${id}`, { headers }), 404, "Not Found")
      expectProblem(
        await client.request("POST", `/insurance/car/quotes/${id}/activation`, { headers }),
        404,
        "Not Found"
      )
    }
    // the other partner's attempts changed nothing
    expect((await client.request("GET", `/insurance/car/quotes/${created.body.quote_id}`)).body).not.toHaveProperty(
      "activated_at"
    )
  })

  it("answers 404 once a quote is 30 days old, awaiting activation or activated", async () => {
    const awaiting = await createQuote()
    const activated = await createQuote()
    await client.request("POST", `/insurance/car/quotes/${activated.body.quote_id}/activation`)
    server.adjustClock(29 * DAY)
    expect((await client.request("GET", `/insurance/car/quotes/${awaiting.body.quote_id}`)).status).toBe(200)
    server.adjustClock(1 * DAY)
    try {
      for (const quote of [awaiting, activated]) {
        expectProblem(await client.request("GET", `/insurance/car/quotes/${quote.body.quote_id}`), 404, "Not Found")
        expectProblem(
          await client.request("POST", `/insurance/car/quotes/${quote.body.quote_id}/activation`),
          404,
          "Not Found"
        )
      }
    } finally {
      server.adjustClock(-30 * DAY)
    }
  })

  it("activates at day 29", async () => {
    const created = await createQuote()
    server.adjustClock(29 * DAY)
    try {
      expect((await client.request("POST", `/insurance/car/quotes/${created.body.quote_id}/activation`)).status).toBe(
        200
      )
    } finally {
      server.adjustClock(-29 * DAY)
    }
  })
})

describe("errors (spec §7, DESIGN §4)", () => {
  it("answers malformed JSON with 400 problem+json, not an HTML page", async () => {
    const answer = await client.request("POST", "/insurance/car/offers", {
      rawBody: '{"product": {',
      headers: { "content-type": "application/json" }
    })
    expectProblem(answer, 400, "Constraint Violation")
    expect(answer.body.violations).toEqual([{ field: "body", message: "is not valid JSON" }])
    expect(answer.text).not.toContain("<")
  })

  it("answers a missing body with 400 naming the body", async () => {
    const answer = await client.request("POST", "/insurance/car/offers")
    expectProblem(answer, 400, "Constraint Violation")
    expect(answer.body.violations).toEqual([{ field: "body", message: "must be a JSON object" }])
  })

  it("answers a non-JSON content type with 415", async () => {
    const answer = await client.request("POST", "/insurance/car/quotes", {
      rawBody: "product=x",
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
    expectProblem(answer, 415, "Unsupported Media Type")
  })

  it("answers a body over the limit with 413", async () => {
    const answer = await client.request("POST", "/insurance/car/quotes", {
      rawBody: JSON.stringify({ padding: "x".repeat(200 * 1024) }),
      headers: { "content-type": "application/json" }
    })
    expectProblem(answer, 413, "Payload Too Large")
  })

  it("answers an unknown path with 404 and a wrong method with 405 and Allow", async () => {
    expectProblem(await client.request("GET", "/insurance/car/policies"), 404, "Not Found")
    const wrongMethod = await client.request("DELETE", "/insurance/car/quotes")
    expectProblem(wrongMethod, 405, "Method Not Allowed")
    expect(wrongMethod.headers.get("allow")).toBe("POST")
    expect((await client.request("PUT", "/products/insurance-car-leasing")).headers.get("allow")).toBe("GET, HEAD")
  })

  it("answers OPTIONS on an operation's path (no CORS configured) with 405 problem+json, Allow and a request id", async () => {
    for (const path of ["/insurance/car/offers", "/health"]) {
      const answer = await client.request("OPTIONS", path)
      expectProblem(answer, 405, "Method Not Allowed")
      expect(answer.headers.get("allow")).toBe(path === "/health" ? "GET, HEAD" : "POST")
      expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    }
  })

  it("sends no X-Powered-By", async () => {
    expect((await client.request("GET", "/health")).headers.get("x-powered-by")).toBeNull()
  })
})

describe("request ids and logs", () => {
  it("echoes a client's X-Request-Id, generates one otherwise, and puts it in the request's log line", async () => {
    const given = await client.request("GET", "/health", { headers: { "x-request-id": "partner-trace-42" } })
    expect(given.headers.get("x-request-id")).toBe("partner-trace-42")
    const generated = await client.request("GET", "/health", { headers: { "x-request-id": "<script>" } })
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    // the request's line is written once its answer has gone, which the client may see first
    await server.logged((line) => line["msg"] === "request" && line["request_id"] === given.headers.get("x-request-id"))
    expect(server.logLines).toContainEqual(
      expect.objectContaining({
        request_id: "partner-trace-42",
        method: "GET",
        path: "/health",
        status: 200,
        duration_ms: expect.any(Number)
      })
    )
  })

  it("puts a request id in every request log line and never a CPR number", async () => {
    const created = await createQuote()
    await server.logged(
      (line) => line["msg"] === "request" && line["request_id"] === created.headers.get("x-request-id")
    )
    const requestLines = server.logLines.filter((line) => line["msg"] === "request")
    expect(requestLines.length).toBeGreaterThan(10)
    for (const line of requestLines) expect(line["request_id"]).toEqual(expect.any(String))
    expect(JSON.stringify(server.logLines)).not.toContain("0101901234")
  })
})

describe("health", () => {
  it("answers liveness and readiness", async () => {
    expect((await client.request("GET", "/health")).body).toEqual({
      status: "ok",
      version: expect.stringMatching(/^\d+\.\d+\.\d+/)
    })
    expect((await client.request("GET", "/ready")).body).toEqual({ status: "ready" })
  })
})
