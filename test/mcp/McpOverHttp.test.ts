/**
 * The MCP endpoint of the real service (bearer tokens and subscription keys made by `kasko`), with the SDK's own
 * client: the tool list; every tool answering what the REST API answers for the same body — a sandbox key's
 * marked "environment": "sandbox" as REST's, production's without; bad arguments refused
 * with the REST 400's violations; another partner's quote not found; a token without a tool's scope refused as a
 * tool error, and credentials without any tool's scope refused at the door as REST refuses them; a foreign Host or
 * Origin refused; each call counted per tool in the metrics and logged on a line.
 */
import { Examples } from "@kasko/core"
import { TOOL_NAMES } from "@kasko/mcp"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addPartner, kasko, type PartnerCredentials, serviceWithPartners } from "../http/credentials.js"
import { call, httpClient, textsOf, violationsOf } from "./support.js"

const state = serviceWithPartners("mcp-http", ["bilhuset", "autohuset"], { KASKO_METRICS_PORT: "0" })
const clients: Array<Client> = []
const connect = async (headers: Record<string, string>) => {
  const connected = await httpClient(state.server.url, headers)
  clients.push(connected)
  return connected
}
let bilhuset: Client
let autohuset: Client
let offersOnly: PartnerCredentials

beforeAll(async () => {
  bilhuset = await connect(state.partners["bilhuset"]!.headers)
  autohuset = await connect(state.partners["autohuset"]!.headers)
  offersOnly = await addPartner(state.directory.path, "forhandler", "offers:create")
})
afterAll(async () => {
  for (const connected of clients) await connected.close()
})

const rest = (method: string, path: string, partner: string, body?: unknown) =>
  state.client.request(method, path, {
    headers: state.partners[partner]!.headers,
    ...(body === undefined ? {} : { body })
  })

/** A raw POST to /mcp (an initialize request) with the headers given. */
const initialize = (headers: Record<string, string>) =>
  fetch(`${state.server.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
    })
  })

describe("the MCP endpoint over streamable HTTP", () => {
  it("lists the seven tools, each with a description and an input schema", async () => {
    const { tools } = await bilhuset.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES])
    for (const tool of tools) {
      expect(tool.description).toBeTruthy()
      expect(tool.inputSchema.type).toBe("object")
    }
  })

  it("answers get_product and price_offer exactly as GET /products and POST /insurance/car/offers", async () => {
    const product = await call(bilhuset, "get_product", { product_name: "insurance-car-standalone" })
    expect(product.structuredContent).toEqual(
      (await rest("GET", "/products/insurance-car-standalone", "bilhuset")).body
    )
    const request = Examples.offerRequest(Examples.standardParameters({ youngest_user_age: "23" }))
    const offer = await call(bilhuset, "price_offer", request)
    expect(offer.structuredContent).toEqual((await rest("POST", "/insurance/car/offers", "bilhuset", request)).body)
  })

  it("explains a price in lines that sum to it, and compares every feature and payment plan", async () => {
    const request = Examples.offerRequest(Examples.standardParameters({ vehicle_usage: "godstransport" }))
    const offer = (await rest("POST", "/insurance/car/offers", "bilhuset", request)).body
    const explained = (await call(bilhuset, "explain_price", request)).structuredContent as {
      lines: Array<{ amount_ore: number }>
      annual_total_ore: number
      annually: number
    }
    const sum = explained.lines.reduce((total, line) => total + line.amount_ore, 0)
    expect(sum).toBe(explained.annual_total_ore)
    expect(Math.floor((sum + 50) / 100)).toBe(offer.price.annually)
    const compared = (await call(bilhuset, "compare_features", request)).structuredContent as {
      options: Array<{ feature: string; payments_per_year: number; annually: number; monthly: number }>
    }
    expect(compared.options.map((option) => `${option.feature} ${option.payments_per_year}`)).toEqual([
      "standard 1",
      "standard 12",
      "premium 1",
      "premium 12"
    ])
    expect(compared.options[0]).toMatchObject({ annually: offer.price.annually, monthly: offer.price.monthly })
  })

  it("creates, reads and activates a quote that the REST API reads back the same", async () => {
    const created = await call(bilhuset, "create_quote", Examples.quoteRequest())
    const quote = created.structuredContent as { quote_id: string; status: string }
    expect(quote.status).toBe("await_activation")
    expect(textsOf(created)[0]).toContain(`Quote ${quote.quote_id}`)
    const path = `/insurance/car/quotes/${quote.quote_id}`
    expect((await call(bilhuset, "get_quote", { quote_id: quote.quote_id })).structuredContent).toEqual(
      (await rest("GET", path, "bilhuset")).body
    )
    const activated = await call(bilhuset, "activate_quote", { quote_id: quote.quote_id })
    expect(activated.structuredContent).toMatchObject({ status: "activated" })
    const read = await call(bilhuset, "get_quote", { quote_id: quote.quote_id })
    expect(read.structuredContent).toMatchObject({ status: "activated" })
    expect(read.structuredContent).toEqual((await rest("GET", path, "bilhuset")).body)
  })

  it("answers a create_quote retried with its idempotency key with the quote it first created, and creates none", async () => {
    const request = { ...Examples.quoteRequest(), idempotency_key: "agent-retry-7" }
    const first = (await call(bilhuset, "create_quote", request)).structuredContent as { quote_id: string }
    const retried = (await call(bilhuset, "create_quote", request)).structuredContent as { quote_id: string }
    expect(retried.quote_id).toBe(first.quote_id)
    const other = await call(bilhuset, "create_quote", {
      ...Examples.quoteRequest(Examples.standardParameters({ vehicle_price: "250000" })),
      idempotency_key: "agent-retry-7"
    })
    expect(other.isError).toBe(true)
    expect(textsOf(other)[0]).toContain("This idempotency key was used with a different request")
    const badKey = await call(bilhuset, "create_quote", { ...Examples.quoteRequest(), idempotency_key: "no spaces" })
    expect(badKey.isError).toBe(true)
    expect(violationsOf(badKey)).toEqual([
      { field: "idempotency_key", message: "must be 1–255 visible ASCII characters" }
    ])
  })

  it("refuses bad arguments as a tool error with the violations the REST API's 400 lists", async () => {
    const request = Examples.quoteRequest(Examples.standardParameters({ vehicle_owner: "person", vehicle_price: "x" }))
    const refused = await call(bilhuset, "create_quote", request)
    expect(refused.isError).toBe(true)
    const problem = await rest("POST", "/insurance/car/quotes", "bilhuset", request)
    expect(problem.status).toBe(400)
    expect(violationsOf(refused)).toEqual(problem.body.violations)
    for (const violation of problem.body.violations)
      expect(textsOf(refused)[0]).toContain(`- ${violation.field}: ${violation.message}`)
    expect(JSON.stringify(refused)).not.toMatch(/at .*\.(js|ts):\d+/)
  })

  it("lists and sells only the products the partner may sell — tools, resources, get_product, price_offer, explain_price, compare_features and create_quote — from its next request on", async () => {
    const setProducts = (...args: Array<string>) =>
      kasko(state.directory.path, "partners", "set-products", "--id", "autohuset", ...args)
    await setProducts("--products", "insurance-car-standalone")
    try {
      // listed: only the product it may sell, in the tools' schemas and descriptions and in the resources
      const listed = JSON.stringify((await autohuset.listTools()).tools)
      expect(listed).toContain("insurance-car-standalone")
      expect(listed).not.toContain("insurance-car-leasing")
      const resources = (await autohuset.listResources()).resources.map((resource) => resource.uri)
      expect(resources).toContain("kasko://products/insurance-car-standalone")
      expect(resources.filter((uri) => uri.includes("insurance-car-leasing"))).toEqual([])
      await expect(autohuset.readResource({ uri: "kasko://products/insurance-car-leasing" })).rejects.toThrow(
        /No resource/
      )
      expect(JSON.stringify((await bilhuset.listTools()).tools)).toContain("insurance-car-leasing")
      const hidden = await call(autohuset, "get_product", { product_name: "insurance-car-leasing" })
      expect(hidden.isError).toBe(true)
      expect(textsOf(hidden)[0]).toContain("insurance-car-standalone")
      expect((await call(autohuset, "get_product", { product_name: "insurance-car-standalone" })).isError).not.toBe(
        true
      )
      const problem = await rest("POST", "/insurance/car/offers", "autohuset", Examples.offerRequest())
      expect(problem.status).toBe(400)
      for (const [tool, args] of [
        ["price_offer", Examples.offerRequest()],
        ["explain_price", Examples.offerRequest()],
        ["compare_features", Examples.offerRequest()],
        ["create_quote", Examples.quoteRequest()]
      ] as const) {
        const refused = await call(autohuset, tool, args)
        expect(refused.isError, tool).toBe(true)
        expect(violationsOf(refused), tool).toEqual(problem.body.violations)
      }
      expect((await call(bilhuset, "price_offer", Examples.offerRequest())).isError).not.toBe(true)
      await setProducts("--all-products")
      expect((await call(autohuset, "price_offer", Examples.offerRequest())).isError).not.toBe(true)
      expect(JSON.stringify((await autohuset.listTools()).tools)).toContain("insurance-car-leasing")
    } finally {
      await setProducts("--all-products")
    }
  })

  it('answers a sandbox key\'s calls as the REST API answers it, with "environment": "sandbox", and production\'s without', async () => {
    const added = JSON.parse(
      await kasko(state.directory.path, "keys", "add", "--partner", "bilhuset", "--sandbox", "--json")
    ) as { subscription_key: string }
    const sandboxHeaders = {
      ...state.partners["bilhuset"]!.headers,
      "ocp-apim-subscription-key": added.subscription_key
    }
    const sandbox = await connect(sandboxHeaders)
    await sandbox.listTools()
    const sandboxRest = (method: string, path: string, body?: unknown) =>
      state.client.request(method, path, { headers: sandboxHeaders, ...(body === undefined ? {} : { body }) })

    const offer = await call(sandbox, "price_offer", Examples.offerRequest())
    expect(offer.structuredContent).toMatchObject({ environment: "sandbox" })
    expect(offer.structuredContent).toEqual(
      (await sandboxRest("POST", "/insurance/car/offers", Examples.offerRequest())).body
    )
    expect(textsOf(offer)[0]).toMatch(/^Sandbox \(a test, not production\): insurance-car-leasing/)
    const created = await call(sandbox, "create_quote", Examples.quoteRequest())
    const quote = created.structuredContent as {
      quote_id: string
      environment: string
      policies: Array<{ policy_number: string }>
    }
    expect(quote.environment).toBe("sandbox")
    expect(quote.policies[0]!.policy_number).toMatch(/^TEST-/)
    const path = `/insurance/car/quotes/${quote.quote_id}`
    expect((await call(sandbox, "get_quote", { quote_id: quote.quote_id })).structuredContent).toEqual(
      (await sandboxRest("GET", path)).body
    )
    const activated = await call(sandbox, "activate_quote", { quote_id: quote.quote_id })
    expect(activated.structuredContent).toMatchObject({ status: "activated", environment: "sandbox" })
    const read = await call(sandbox, "get_quote", { quote_id: quote.quote_id })
    expect(read.structuredContent).toMatchObject({
      status: "activated",
      environment: "sandbox",
      quote_number: expect.stringMatching(/^TEST-/)
    })
    expect(read.structuredContent).toEqual((await sandboxRest("GET", path)).body)
    // the production key's session: the sandbox's quote is not there, and its answers carry no environment
    expect((await call(bilhuset, "get_quote", { quote_id: quote.quote_id })).isError).toBe(true)
    for (const answer of [
      await call(bilhuset, "price_offer", Examples.offerRequest()),
      await call(bilhuset, "create_quote", Examples.quoteRequest())
    ]) {
      expect(answer.structuredContent).not.toHaveProperty("environment")
      expect(textsOf(answer)[0]).not.toContain("Sandbox")
    }
  })

  it("does not let one partner read or activate another's quote", async () => {
    const quote = (await call(bilhuset, "create_quote", Examples.quoteRequest())).structuredContent as {
      quote_id: string
    }
    for (const tool of ["get_quote", "activate_quote"]) {
      const refused = await call(autohuset, tool, { quote_id: quote.quote_id })
      expect(refused.isError, tool).toBe(true)
      expect(textsOf(refused)[0]).toContain("No quote")
      expect(refused.structuredContent).toBeUndefined()
    }
    expect((await rest("GET", `/insurance/car/quotes/${quote.quote_id}`, "bilhuset")).body.status).toBe(
      "await_activation"
    )
  })

  it("refuses a tool whose scope the token lacks as a tool error naming it, and serves the scopes it has", async () => {
    const forhandler = await connect(offersOnly.headers)
    expect((await forhandler.listTools()).tools).toHaveLength(TOOL_NAMES.length)
    expect((await call(forhandler, "price_offer", Examples.offerRequest())).isError).toBeUndefined()
    const refused = await call(forhandler, "create_quote", Examples.quoteRequest())
    expect(refused.isError).toBe(true)
    expect(textsOf(refused)[0]).toContain("lacks the scope quotes:create")
  })

  it("refuses credentials at the door as the REST API does: 401 with WWW-Authenticate, before the body", async () => {
    const none = await initialize({})
    expect(none.status).toBe(401)
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="kasko"')
    expect(none.headers.get("content-type")).toContain("application/problem+json")
    const hooks = await addPartner(state.directory.path, "webhooks-only", "webhooks:manage")
    const noTool = await initialize(hooks.headers)
    expect(noTool.status).toBe(401)
    expect(noTool.headers.get("www-authenticate")).toContain(
      'error="insufficient_scope", error_description="the token lacks every scope this endpoint admits: offers:create, products:read, quotes:create, quotes:read, quotes:activate", scope="offers:create products:read quotes:create quotes:read quotes:activate"'
    )
    await expect(httpClient(state.server.url, hooks.headers)).rejects.toThrow()
    const served = await initialize(state.partners["bilhuset"]!.headers)
    expect(served.status).toBe(200)
    expect(served.headers.get("ratelimit-limit")).toBeTruthy()
    expect(served.headers.get("cache-control")).toBe("no-store")
  })

  it("refuses a JSON-RPC batch, which would be many calls counted as one request", async () => {
    const call = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "create_quote", arguments: Examples.quoteRequest() }
    })
    const before = state.server.logLines.filter((line) => line["msg"] === "tool call").length
    const batch = await fetch(`${state.server.url}/mcp`, {
      method: "POST",
      headers: {
        ...state.partners["bilhuset"]!.headers,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25"
      },
      body: JSON.stringify([call(1), call(2)])
    })
    expect(batch.status).toBe(400)
    expect(((await batch.json()) as { error: unknown }).error).toMatchObject({ code: -32600 })
    expect(state.server.logLines.filter((line) => line["msg"] === "tool call")).toHaveLength(before)
  })

  it("refuses a foreign Host or Origin with 403, and answers GET and OPTIONS with 405", async () => {
    const port = new URL(state.server.url).port
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const sent = httpRequest({ host: "127.0.0.1", port, path: "/mcp", method: "POST", headers }, (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        })
        sent.on("error", reject)
        sent.end("{}")
      })
    const credentials = { ...state.partners["bilhuset"]!.headers, "content-type": "application/json" }
    expect(await status({ ...credentials, host: `evil.example.com:${port}` })).toBe(403)
    expect(await status({ ...credentials, host: `localhost:${port}`, origin: "http://evil.example.com" })).toBe(403)
    const get = await fetch(`${state.server.url}/mcp`, { headers: { accept: "text/event-stream" } })
    expect(get.status).toBe(405)
    expect(get.headers.get("allow")).toBe("POST")
    // as every route answers a method it does not take: problem+json, never Express's own text
    const options = await fetch(`${state.server.url}/mcp`, { method: "OPTIONS" })
    expect(options.status).toBe(405)
    expect(options.headers.get("content-type")).toContain("application/problem+json")
  })

  it("counts each call per tool and outcome in the metrics, and logs it on a line with its request's id", async () => {
    const scrape = async () => (await fetch(`http://127.0.0.1:${state.server.service.metricsPort}/metrics`)).text()
    const count = (text: string, tool: string, outcome: string) =>
      Number(
        new RegExp(
          `^kasko_mcp_tool_calls_total\\{tool="${tool}",outcome="${outcome}",environment="production"\\} (\\S+)$`,
          "m"
        ).exec(text)?.[1]
      )
    const before = await scrape()
    await call(bilhuset, "explain_price", Examples.offerRequest())
    await call(bilhuset, "get_product", { product_name: "no-such-product" })
    let after = await scrape()
    // a scrape serves the exposition of a second: polled (every 50 ms) until it shows the calls, with no give-up but
    // the test's own time
    while (count(after, "get_product", "refused") === count(before, "get_product", "refused")) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      after = await scrape()
    }
    expect(count(after, "explain_price", "ok") - count(before, "explain_price", "ok")).toBe(1)
    expect(count(after, "get_product", "refused") - count(before, "get_product", "refused")).toBe(1)
    const line = await state.server.logged(
      (logged) => logged["msg"] === "tool call" && logged["tool"] === "get_product" && logged["outcome"] === "refused"
    )
    expect(line).toMatchObject({ transport: "http", duration_ms: expect.any(Number) })
    // the call's line names the request it came in, whose own line says POST /mcp
    expect(
      await state.server.logged((logged) => logged["msg"] === "request" && logged["request_id"] === line["request_id"])
    ).toMatchObject({ method: "POST", path: "/mcp", status: 200 })
  })
})
