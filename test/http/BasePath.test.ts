/**
 * Spec §9.1: a base path. With KASKO_BASE_PATH the partner API and its
 * document answer below the prefix and nowhere else; the document's server URL
 * carries the prefix; the probes stay at the root, where the document says they are.
 */
import { Examples } from "@kasko/core"
import { readServiceConfig } from "@kasko/server"
import { Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeClient, startTestService, type TestService } from "./support.js"

const BASE_PATH = "/partner/car/v1"

let server: TestService
let client: Awaited<ReturnType<typeof makeClient>>
beforeAll(async () => {
  server = await startTestService({
    environment: { KASKO_BASE_PATH: BASE_PATH, KASKO_PUBLIC_URL: "https://api.insurer.example" }
  })
  client = await makeClient(`${server.url}${BASE_PATH}`)
})
afterAll(() => server.stop())

describe("the partner API under KASKO_BASE_PATH", () => {
  it("answers every operation below the prefix", async () => {
    expect((await client.request("GET", "/products/insurance-car-leasing")).status).toBe(200)
    expect((await client.request("POST", "/insurance/car/offers", { body: Examples.offerRequest() })).status).toBe(200)
    const created = await client.request("POST", "/insurance/car/quotes", { body: Examples.quoteRequest() })
    expect(created.status).toBe(200)
    expect((await client.request("GET", `/insurance/car/quotes/${created.body.quote_id}`)).status).toBe(200)
    expect((await client.request("POST", `/insurance/car/quotes/${created.body.quote_id}/activation`)).status).toBe(200)
    expect((await client.request("GET", "/docs")).status).toBe(200)
    // the page loads its assets relative to itself, so they resolve below the prefix too
    expect((await fetch(`${server.url}${BASE_PATH}/docs/assets/swagger-ui.css`)).status).toBe(200)
  })

  it("answers 404 problem+json for the partner API at the root", async () => {
    for (const path of ["/products/insurance-car-leasing", "/openapi.json", "/docs"]) {
      const answer = await fetch(`${server.url}${path}`)
      expect(answer.status).toBe(404)
      expect(answer.headers.get("content-type")).toContain("application/problem+json")
    }
  })

  it("keeps health and readiness at the root", async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
    expect((await fetch(`${server.url}/ready`)).status).toBe(200)
    expect((await fetch(`${server.url}${BASE_PATH}/health`)).status).toBe(404)
  })

  it("names the prefix in the document's server URL, and the root as the probes' server", () => {
    const document = client.document as any
    expect(document.servers[0].url).toBe(`https://api.insurer.example${BASE_PATH}`)
    expect(document.paths["/health"].get.servers).toEqual([
      { url: "https://api.insurer.example", description: expect.any(String) }
    ])
    expect(document.paths["/ready"].get.servers).toEqual([
      { url: "https://api.insurer.example", description: expect.any(String) }
    ])
    expect(document.paths["/products/{product_name}"].get.servers).toBeUndefined()
  })

  it("refuses a base path that is not a plain path, naming the variable", () => {
    for (const basePath of ["partner", "/partner/", "/Partner", "/a b"]) {
      const config = readServiceConfig({ KASKO_BASE_PATH: basePath })
      expect(Result.isFailure(config) && config.failure).toMatch(/KASKO_BASE_PATH/)
    }
    expect(Result.isSuccess(readServiceConfig({ KASKO_BASE_PATH: BASE_PATH }))).toBe(true)
  })
})
