/**
 * Sandbox keys (issue 47), through the real service and the `kasko` command: a key made with `kasko keys add
 * --sandbox` works only in the partner's sandbox, whose quotes — and idempotency keys — are apart from production's
 * (404 both ways), numbered TEST-…, answered with "environment": "sandbox", activated without becoming a policy,
 * valid 7 days (its expires_at, then 404), and counted under the sandbox's own rate limit. Production answers stay
 * as they were, without the field, valid 30 days. The metrics count what a sandbox key does under
 * environment="sandbox", a production key's under "production", and requests not authenticated under "none".
 */
import { Examples } from "@kasko/core"
import { describe, expect, it } from "vitest"
import { call, httpClient } from "../mcp/support.js"
import { kasko, serviceWithPartners } from "./credentials.js"
import { type Samples, scrape, scrapeUntil } from "./Prometheus.js"

const SANDBOX_RATE_LIMIT = 50
const service = serviceWithPartners("sandbox", ["alice-leasing"], {
  KASKO_SANDBOX_RATE_LIMIT_PER_MINUTE: String(SANDBOX_RATE_LIMIT),
  KASKO_METRICS_PORT: "0"
})

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

  it("counts what a sandbox key does in the metrics under environment sandbox, a production key's under production", async () => {
    const sandbox = await sandboxHeaders("alice-leasing")
    const port = service.server.service.metricsPort
    const before = await scrape(port)
    const offer = (headers: Record<string, string>) =>
      service.client.request("POST", "/insurance/car/offers", { body: Examples.offerRequest(), headers })
    expect((await offer(sandbox)).status).toBe(200)
    expect((await offer(sandbox)).status).toBe(200)
    expect((await offer(production())).status).toBe(200)
    const test = await createQuote(sandbox)
    expect(test.status).toBe(200)
    const activation = `/insurance/car/quotes/${test.body.quote_id}/activation`
    expect((await service.client.request("POST", activation, { headers: sandbox })).status).toBe(200)
    expect((await createQuote(production())).status).toBe(200)
    expect((await service.client.request("GET", "/products/insurance-car-leasing")).status).toBe(401)
    const agent = await httpClient(service.server.url, sandbox)
    try {
      expect((await call(agent, "price_offer", Examples.offerRequest())).isError).toBeFalsy()
    } finally {
      await agent.close()
    }
    // the sandbox key's rate limit: refused once its minute's requests are spent, and that refusal is the sandbox's
    let status = 200
    for (let sent = 0; sent <= SANDBOX_RATE_LIMIT && status !== 429; sent++)
      status = (await service.client.request("GET", "/products/insurance-car-leasing", { headers: sandbox })).status
    expect(status).toBe(429)

    // an exposition serves the scrapes of a second: scraped until it shows the last refusal, in any environment
    const refused = (samples: Samples) =>
      [...samples].reduce(
        (sum, [sample, value]) =>
          sample.startsWith('kasko_http_requests_total{operation="getProduct",status="429",') ? sum + value : sum,
        0
      )
    const after = await scrapeUntil(port, (samples) => refused(samples) > refused(before))
    const moved = (sample: string) => (after.get(sample) ?? 0) - (before.get(sample) ?? 0)
    const requests = (operation: string, status: number, environment: string) =>
      moved(`kasko_http_requests_total{operation="${operation}",status="${status}",environment="${environment}"}`)
    expect(requests("createOffer", 200, "sandbox")).toBe(2)
    expect(requests("createOffer", 200, "production")).toBe(1)
    expect(requests("createQuote", 200, "sandbox")).toBe(1)
    expect(requests("createQuote", 200, "production")).toBe(1)
    expect(requests("activateQuote", 200, "sandbox")).toBe(1)
    expect(requests("activateQuote", 200, "production")).toBe(0)
    expect(requests("getProduct", 401, "none")).toBe(1)
    expect(requests("getProduct", 429, "sandbox")).toBe(1)
    expect(requests("getProduct", 429, "production")).toBe(0)
    expect(requests("mcp", 200, "sandbox")).toBeGreaterThanOrEqual(2)
    expect(requests("mcp", 200, "production")).toBe(0)
    expect(moved('kasko_quotes_created_total{environment="sandbox"}')).toBe(1)
    expect(moved('kasko_quotes_created_total{environment="production"}')).toBe(1)
    expect(moved('kasko_quotes_activated_total{environment="sandbox"}')).toBe(1)
    expect(moved('kasko_quotes_activated_total{environment="production"}')).toBe(0)
    expect(moved('kasko_mcp_tool_calls_total{tool="price_offer",outcome="ok",environment="sandbox"}')).toBe(1)
    expect(moved('kasko_mcp_tool_calls_total{tool="price_offer",outcome="ok",environment="production"}')).toBe(0)
    // the label has these three values, whatever the partners and keys
    const environments = new Set([...after.keys()].flatMap((sample) => /environment="([^"]*)"/.exec(sample)?.[1] ?? []))
    expect([...environments].sort()).toEqual(["none", "production", "sandbox"])
  })

  it("counts a sandbox key under the sandbox's own rate limit, and a production key under production's", async () => {
    const sandbox = await sandboxHeaders("alice-leasing")
    const test = await service.client.request("GET", "/products/insurance-car-leasing", { headers: sandbox })
    expect(test.headers.get("ratelimit-limit")).toBe(String(SANDBOX_RATE_LIMIT))
    const real = await service.client.request("GET", "/products/insurance-car-leasing", { headers: production() })
    expect(real.headers.get("ratelimit-limit")).toBe("6000")
  })
})
