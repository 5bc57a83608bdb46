/**
 * What stands in front of the routes: security headers, CORS only when
 * configured, a rate limit per subscription key, JSON shape limits, and
 * problem+json even for requests Node rejects before Express.
 */
import { Examples } from "@kasko/core"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { serviceWithPartners, type PartnerCredentials } from "./credentials.js"

const service = serviceWithPartners("protection", ["alice-leasing", "bob-biler"], {
  KASKO_RATE_LIMIT_PER_MINUTE: "5",
  KASKO_CORS_ORIGINS: "https://portal.partner.example"
})

/** Sends raw bytes and answers the raw response. */
const rawRequest = (bytes: string) =>
  new Promise<string>((resolve, reject) => {
    const url = new URL(service.server.url)
    const socket = connect(Number(url.port), url.hostname, () => socket.end(bytes))
    let answer = ""
    socket.on("data", (chunk) => (answer += String(chunk)))
    socket.on("close", () => resolve(answer))
    socket.on("error", reject)
  })

describe("protection", () => {
  it("sends security headers for a JSON API and no X-Powered-By", async () => {
    const answer = await service.client.request("GET", "/health")
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff")
    expect(answer.headers.get("content-security-policy")).toContain("default-src 'self'")
    expect(answer.headers.get("x-frame-options")).toBe("SAMEORIGIN")
    expect(answer.headers.get("x-powered-by")).toBeNull()
  })

  it("allows CORS only for the configured origin", async () => {
    const allowed = await fetch(`${service.server.url}/health`, {
      headers: { origin: "https://portal.partner.example" }
    })
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://portal.partner.example")
    const other = await fetch(`${service.server.url}/health`, { headers: { origin: "https://evil.example" } })
    expect(other.headers.get("access-control-allow-origin")).toBeNull()
  })

  it("answers a partner over its rate limit with 429, Retry-After and RateLimit headers, leaving another partner unaffected", async () => {
    const offer = (partner: PartnerCredentials) =>
      service.client.request("POST", "/insurance/car/offers", {
        body: Examples.offerRequest(),
        headers: partner.headers
      })
    const answers = []
    for (let count = 0; count < 6; count++) answers.push(await offer(service.partners["alice-leasing"]!))
    expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200])
    const limited = answers[5]!
    expect(limited.status).toBe(429)
    expect(limited.headers.get("content-type")).toContain("application/problem+json")
    expect(limited.body).toMatchObject({ title: "Too Many Requests", status: 429 })
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(limited.headers.get("ratelimit-limit")).toBe("5")
    expect(limited.headers.get("ratelimit-remaining")).toBe("0")
    expect((await offer(service.partners["bob-biler"]!)).status).toBe(200)
    // health and readiness are not rate-limited
    expect(
      (await service.client.request("GET", "/health", { headers: service.partners["alice-leasing"]!.headers })).status
    ).toBe(200)
  })

  it.each([
    ["nested deeper than 32 levels", `{"product": ${"[".repeat(40)}${"]".repeat(40)}}`, "nests deeper than 32 levels"],
    [
      "an array of more than 1 000 entries",
      JSON.stringify({ product: Array.from({ length: 1_001 }, () => 1) }),
      "more than 1000 entries"
    ]
  ])("answers a body %s with 400 naming the body", async (_what, rawBody, message) => {
    const answer = await service.client.request("POST", "/insurance/car/quotes", {
      rawBody,
      headers: { ...service.partners["bob-biler"]!.headers, "content-type": "application/json" }
    })
    expect(answer.status).toBe(400)
    expect(answer.body.violations).toEqual([{ field: "body", message: expect.stringContaining(message) }])
  })

  it("answers headers over 16 KiB with 431 problem+json", async () => {
    const answer = await rawRequest(
      `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${"x".repeat(20_000)}\r\n\r\n`
    )
    expect(answer).toMatch(/^HTTP\/1\.1 431 /)
    expect(answer).toContain("application/problem+json")
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({
      status: 431,
      title: "Request Header Fields Too Large"
    })
  })

  it("answers malformed HTTP with 400 problem+json", async () => {
    const answer = await rawRequest("NOT HTTP AT ALL\r\n\r\n")
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({
      status: 400,
      violations: [{ field: "request" }]
    })
  })
})
