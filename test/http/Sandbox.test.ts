/**
 * Sandbox keys (issue 47), through the real service and the `kasko` command: a key made with `kasko keys add
 * --sandbox` works only in the partner's sandbox, whose quotes — and idempotency keys — are apart from production's
 * (404 both ways), numbered TEST-…, answered with "environment": "sandbox", activated without becoming a policy,
 * valid 7 days (its expires_at, then 404), and counted under the sandbox's own rate limit. Production answers stay
 * as they were, without the field, valid 30 days.
 */
import { Examples } from "@kasko/core"
import { describe, expect, it } from "vitest"
import { kasko, serviceWithPartners } from "./credentials.js"

const service = serviceWithPartners("sandbox", ["alice-leasing"], { KASKO_SANDBOX_RATE_LIMIT_PER_MINUTE: "50" })

const sandboxHeaders = async (partnerId: string) => {
  const added = JSON.parse(
    await kasko(service.directory.path, "keys", "add", "--partner", partnerId, "--sandbox", "--json")
  ) as { subscription_key: string; environment: string }
  expect(added.environment).toBe("sandbox")
  return { ...service.partners[partnerId]!.headers, "ocp-apim-subscription-key": added.subscription_key }
}
const production = () => service.partners["alice-leasing"]!.headers
const DAY = 24 * 60 * 60 * 1000

const createQuote = (headers: Record<string, string>, idempotencyKey?: string) =>
  service.client.request("POST", "/insurance/car/quotes", {
    body: Examples.quoteRequest(),
    headers: { ...headers, ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }) }
  })
const getQuote = (headers: Record<string, string>, quoteId: string) =>
  service.client.request("GET", `/insurance/car/quotes/${quoteId}`, { headers })

describe("sandbox keys", () => {
  it("keeps sandbox quotes apart from production's both ways, numbers them TEST-, and marks every answer", async () => {
    const sandbox = await sandboxHeaders("alice-leasing")
    const test = await createQuote(sandbox)
    expect(test.status).toBe(200)
    expect(test.body.environment).toBe("sandbox")
    expect(test.body.policies[0].policy_number).toMatch(/^TEST-\d{10}$/)
    const real = await createQuote(production())
    expect(real.status).toBe(200)
    expect(real.body).not.toHaveProperty("environment")
    expect(real.body.policies[0].policy_number).toMatch(/^\d{10}$/)

    expect((await getQuote(production(), test.body.quote_id)).status).toBe(404)
    expect((await getQuote(sandbox, real.body.quote_id)).status).toBe(404)
    const activateOther = await service.client.request(
      "POST",
      `/insurance/car/quotes/${real.body.quote_id}/activation`,
      {
        headers: sandbox
      }
    )
    expect(activateOther.status).toBe(404)

    const read = await getQuote(sandbox, test.body.quote_id)
    expect(read.status).toBe(200)
    expect(read.body.environment).toBe("sandbox")
    const offer = await service.client.request("POST", "/insurance/car/offers", {
      body: Examples.offerRequest(),
      headers: sandbox
    })
    expect(offer.body.environment).toBe("sandbox")
    const product = await service.client.request("GET", "/products/insurance-car-leasing", { headers: production() })
    expect(product.body).not.toHaveProperty("environment")
  })

  it("activates a sandbox quote, whose quote number is TEST- too", async () => {
    const sandbox = await sandboxHeaders("alice-leasing")
    const test = await createQuote(sandbox)
    const activation = await service.client.request("POST", `/insurance/car/quotes/${test.body.quote_id}/activation`, {
      headers: sandbox
    })
    expect(activation.status).toBe(200)
    expect(activation.body).toEqual({ environment: "sandbox" })
    const read = await getQuote(sandbox, test.body.quote_id)
    expect(read.body.status).toBe("activated")
    expect(read.body.quote_number).toMatch(/^TEST-/)
  })

  it("keeps idempotency keys apart: the same key makes one quote in each environment", async () => {
    const sandbox = await sandboxHeaders("alice-leasing")
    const key = "order-2026-0042"
    const test = await createQuote(sandbox, key)
    const real = await createQuote(production(), key)
    expect(test.status).toBe(200)
    expect(real.status).toBe(200)
    expect(real.body.quote_id).not.toBe(test.body.quote_id)
    expect((await createQuote(sandbox, key)).body.quote_id).toBe(test.body.quote_id)
    expect((await createQuote(production(), key)).body.quote_id).toBe(real.body.quote_id)
  })

  it("answers a sandbox quote valid 7 days from its creation, as long as it is kept, and a production quote 30", async () => {
    const sandbox = await sandboxHeaders("alice-leasing")
    const test = await createQuote(sandbox)
    const real = await createQuote(production())
    const validity = async (headers: Record<string, string>, created: typeof test) => {
      await service.client.request("POST", `/insurance/car/quotes/${created.body.quote_id}/activation`, { headers })
      // the activated form says when the quote was created
      const read = await getQuote(headers, created.body.quote_id)
      expect(read.body.expires_at).toBe(created.body.expires_at)
      return Date.parse(read.body.expires_at) - Date.parse(read.body.created_at)
    }
    expect(await validity(sandbox, test)).toBe(7 * DAY)
    expect(await validity(production(), real)).toBe(30 * DAY)
    // from its expires_at on, the sandbox quote is not found, whether or not the purge has run yet
    service.server.adjustClock(7 * DAY)
    try {
      expect((await getQuote(sandbox, test.body.quote_id)).status).toBe(404)
      expect((await getQuote(production(), real.body.quote_id)).status).toBe(200)
    } finally {
      service.server.adjustClock(-7 * DAY)
    }
  })

  it("counts a sandbox key under the sandbox's own rate limit, and a production key under production's", async () => {
    const sandbox = await sandboxHeaders("alice-leasing")
    const test = await service.client.request("GET", "/products/insurance-car-leasing", { headers: sandbox })
    expect(test.headers.get("ratelimit-limit")).toBe("50")
    const real = await service.client.request("GET", "/products/insurance-car-leasing", { headers: production() })
    expect(real.headers.get("ratelimit-limit")).toBe("6000")
  })
})
