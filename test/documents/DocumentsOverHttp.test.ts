/**
 * The documents over HTTP, with real credentials: the IPID and the privacy policy public — no credentials, but
 * the rate limit, the security headers and the request id as every answer — cacheable with an ETag per version
 * (If-None-Match answers 304); a quote's document only for its partner with `quotes:read`, never stored by a
 * cache, 404 as the quote. Every answer is checked against the served OpenAPI document.
 */
import { Examples } from "@kasko/core"
import { describe, expect, it } from "vitest"
import { addPartner, serviceWithPartners } from "../http/credentials.js"
import { asPartner, startTestService } from "../http/support.js"
import { pdfLines, skipPoppler } from "./Poppler.js"

const service = serviceWithPartners("documents-http", ["bilhuset", "autohuset"], { KASKO_RATE_LIMIT_PER_MINUTE: "40" })
const IPID = "/products/insurance-car-leasing/variants/standard/ipid"

const bytesOf = async (path: string, headers: Record<string, string> = {}) => {
  const answer = await fetch(`${service.server.url}${path}`, { headers })
  return { answer, bytes: new Uint8Array(await answer.arrayBuffer()) }
}

describe("the documents over HTTP", () => {
  it("link from offers and quotes to kasko's own documents on this service, by default", async () => {
    const headers = service.partners["bilhuset"]!.headers
    const port = new URL(service.server.url).port
    const offer = await service.client.request("POST", "/insurance/car/offers", {
      headers,
      body: Examples.offerRequest()
    })
    expect(offer.body.policies[0].ipid_href).toBe(`http://localhost:${port}${IPID}`)
    expect(offer.body.privacy.policy_href).toBe(`http://localhost:${port}/privacy-policy`)
    const quote = await service.client.request("POST", "/insurance/car/quotes", {
      headers,
      body: Examples.quoteRequest()
    })
    expect(quote.body.policies[0].ipid_href).toBe(`http://localhost:${port}${IPID}`)
    expect(quote.body.privacy.policy_href).toBe(`http://localhost:${port}/privacy-policy`)
  })

  it("serve the IPID to anyone as PDF: cacheable, with an ETag that answers 304, and the security headers", async () => {
    const first = await service.client.request("GET", IPID)
    expect(first.status).toBe(200)
    expect(first.headers.get("content-type")).toBe("application/pdf")
    expect(first.headers.get("cache-control")).toBe("public, max-age=3600")
    expect(first.headers.get("content-disposition")).toBe('inline; filename="ipid-insurance-car-leasing-standard.pdf"')
    expect(first.headers.get("x-content-type-options")).toBe("nosniff")
    // the security headers of every answer, but a browser's PDF viewer (a plugin) may show it
    expect(first.headers.get("content-security-policy")).toContain("object-src 'self'")
    expect(first.headers.get("content-security-policy")).toContain("frame-ancestors 'self'")
    expect(first.headers.get("x-request-id")).toMatch(/\S/)
    const etag = first.headers.get("etag")!
    expect(etag).toMatch(/^W\/"ipid\/insurance-car-leasing\/standard\/v1\/[0-9a-f]{8}"$/)
    const again = await bytesOf(IPID)
    expect(again.answer.headers.get("etag")).toBe(etag)
    expect(Buffer.from(again.bytes).subarray(0, 5).toString()).toBe("%PDF-")
    const notModified = await service.client.request("GET", IPID, { headers: { "if-none-match": etag } })
    expect(notModified.status).toBe(304)
    expect(notModified.text).toBe("")
    expect(notModified.headers.get("etag")).toBe(etag)
    expect(notModified.headers.get("cache-control")).toBe("public, max-age=3600")
    const listed = await service.client.request("GET", IPID, { headers: { "if-none-match": `"other", ${etag}` } })
    expect(listed.status).toBe(304)
    const stale = await service.client.request("GET", IPID, { headers: { "if-none-match": 'W/"ipid/old"' } })
    expect(stale.status).toBe(200)
    const extended = await bytesOf("/products/insurance-car-standalone/variants/extended/ipid")
    expect(extended.answer.status).toBe(200)
    expect(extended.answer.headers.get("etag")).not.toBe(etag)
  })

  it("answer cacheable documents without the client's RateLimit headers, which a shared cache would hand to others", async () => {
    const rateLimitHeaders = (headers: Headers) =>
      [...headers.keys()].filter((name) => name.toLowerCase().startsWith("ratelimit"))
    for (const path of [IPID, "/privacy-policy"]) {
      const answer = await service.client.request("GET", path)
      expect(answer.status, path).toBe(200)
      expect(answer.headers.get("cache-control"), path).toBe("public, max-age=3600")
      expect(rateLimitHeaders(answer.headers), path).toEqual([])
      const notModified = await service.client.request("GET", path, {
        headers: { "if-none-match": answer.headers.get("etag")! }
      })
      expect(notModified.status, path).toBe(304)
      expect(rateLimitHeaders(notModified.headers), path).toEqual([])
    }
    // a partner's answers, never stored by a cache, carry them
    const own = service.partners["bilhuset"]!.headers
    const offer = await service.client.request("POST", "/insurance/car/offers", {
      headers: own,
      body: Examples.offerRequest()
    })
    expect(offer.headers.get("ratelimit-limit")).toBe("40")
    // and the document says so
    const document = (await service.client.request("GET", "/openapi.json")).body
    for (const path of ["/products/{product_name}/variants/{variant}/ipid", "/privacy-policy"])
      for (const status of ["200", "304"])
        expect(Object.keys(document.paths[path].get.responses[status].headers), `${path} ${status}`).not.toContain(
          "RateLimit-Limit"
        )
    expect(Object.keys(document.paths["/insurance/car/offers"].post.responses["200"].headers)).toContain(
      "RateLimit-Limit"
    )
  })

  it("answer HEAD with a document's headers and no body: the IPID's, and a quote's for its partner", async () => {
    const own = service.partners["bilhuset"]!.headers
    const quote = await service.client.request("POST", "/insurance/car/quotes", {
      headers: own,
      body: Examples.quoteRequest()
    })
    for (const [path, headers] of [
      [IPID, {}],
      [`/insurance/car/quotes/${quote.body.quote_id}/document`, own]
    ] as const) {
      const got = await fetch(`${service.server.url}${path}`, { headers })
      const whole = Buffer.from(await got.arrayBuffer())
      const head = await fetch(`${service.server.url}${path}`, { method: "HEAD", headers })
      expect(head.status, path).toBe(200)
      expect(head.headers.get("content-type"), path).toBe("application/pdf")
      expect(head.headers.get("content-disposition"), path).toBe(got.headers.get("content-disposition"))
      expect(head.headers.get("cache-control"), path).toBe(got.headers.get("cache-control"))
      expect(head.headers.get("etag"), path).toBe(got.headers.get("etag"))
      expect(Number(head.headers.get("content-length")), path).toBe(whole.length)
      expect((await head.arrayBuffer()).byteLength, path).toBe(0)
    }
    // and HEAD is refused as GET is: another partner's quote is not found
    const other = await fetch(`${service.server.url}/insurance/car/quotes/${quote.body.quote_id}/document`, {
      method: "HEAD",
      headers: service.partners["autohuset"]!.headers
    })
    expect(other.status).toBe(404)
  })

  it("serve the privacy policy to anyone as PDF", async () => {
    const answer = await service.client.request("GET", "/privacy-policy")
    expect(answer.status).toBe(200)
    expect(answer.headers.get("content-type")).toBe("application/pdf")
    expect(answer.headers.get("etag")).toMatch(/^W\/"privacy-policy\/[0-9a-f]{8}"$/)
  })

  it("answer 404 problem+json naming the unknown product_name or variant", async () => {
    const problemAt = async (path: string, headers: Record<string, string> = {}) => {
      const answer = await service.client.request("GET", path, { headers })
      expect(answer.status, path).toBe(404)
      expect(answer.headers.get("content-type")).toContain("application/problem+json")
      expect(answer.body).toMatchObject({ status: 404, title: "Not Found" })
      return answer.body.detail as string
    }
    expect(await problemAt("/products/insurance-car-leasing/variants/premium/ipid")).toBe(
      'Product insurance-car-leasing has no variant "premium": variant is one of standard, extended.'
    )
    // the product is what is not found, whatever the variant
    for (const variant of ["standard", "premium"])
      expect(await problemAt(`/products/insurance-boat/variants/${variant}/ipid`)).toBe(
        'No product with product_name "insurance-boat": it is one of insurance-car-leasing, insurance-car-standalone.'
      )
    // the product definition's 404 says the same
    expect(await problemAt("/products/insurance-boat", service.partners["bilhuset"]!.headers)).toContain(
      'product_name "insurance-boat"'
    )
    // an echoed name is cut short
    const long = await problemAt(`/products/${"x".repeat(500)}/variants/standard/ipid`)
    expect(long).toContain(`"${"x".repeat(64)}…"`)
    expect(long.length).toBeLessThan(200)
  })

  it("serve a quote's document to its partner only, with quotes:read, never to be stored", async () => {
    const own = service.partners["bilhuset"]!.headers
    const quote = await service.client.request("POST", "/insurance/car/quotes", {
      headers: own,
      body: Examples.quoteRequest()
    })
    const path = `/insurance/car/quotes/${quote.body.quote_id}/document`
    const document = await service.client.request("GET", path, { headers: own })
    expect(document.status).toBe(200)
    expect(document.headers.get("content-type")).toBe("application/pdf")
    expect(document.headers.get("cache-control")).toBe("no-store")
    expect(document.headers.get("content-security-policy")).toContain("object-src 'self'")
    expect(document.headers.get("etag")).toBeNull()
    expect(document.headers.get("content-disposition")).toBe(`inline; filename="tilbud-${quote.body.quote_id}.pdf"`)

    const anonymous = await service.client.request("GET", path)
    expect(anonymous.status).toBe(401)
    const other = await service.client.request("GET", path, { headers: service.partners["autohuset"]!.headers })
    expect(other.status).toBe(404)
    const unknown = await service.client.request(
      "GET",
      "/insurance/car/quotes/0195574f-8e28-7c3a-9b1d-5f2e8a4c6d10/document",
      {
        headers: own
      }
    )
    expect(unknown.status).toBe(404)

    const reader = await addPartner(service.directory.path, "reader-less", "quotes:create")
    const created = await service.client.request("POST", "/insurance/car/quotes", {
      headers: reader.headers,
      body: Examples.quoteRequest()
    })
    const withoutScope = await service.client.request(
      "GET",
      `/insurance/car/quotes/${created.body.quote_id}/document`,
      {
        headers: reader.headers
      }
    )
    expect(withoutScope.status).toBe(401)
    expect(withoutScope.headers.get("www-authenticate")).toContain('scope="quotes:read"')
  })

  it("count public documents against the client's address: 429 past the per-minute limit", async () => {
    const limited = await startTestService({ environment: { KASKO_RATE_LIMIT_PER_MINUTE: "3" } })
    try {
      const statuses: Array<number> = []
      for (let request = 0; request < 5; request++) statuses.push((await fetch(`${limited.url}/privacy-policy`)).status)
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      const refused = await fetch(`${limited.url}${IPID}`)
      expect(refused.status).toBe(429)
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/)
      // a refusal is not cached: it tells the client its count
      expect(refused.headers.get("ratelimit-limit")).toBe("3")
    } finally {
      await limited.stop()
    }
  })
})

describe("quote documents, a partner's share of the printing", () => {
  it("answers 429 naming the document limit to a partner past it, while its other requests and another partner are served", async () => {
    const limited = await startTestService({ environment: { KASKO_DOCUMENT_RATE_LIMIT_PER_MINUTE: "3" } })
    try {
      const quoteOf = async (partner: string) => {
        const created = await fetch(`${limited.url}/insurance/car/quotes`, {
          method: "POST",
          headers: { ...asPartner(partner), "content-type": "application/json" },
          body: JSON.stringify(Examples.quoteRequest())
        })
        return ((await created.json()) as { quote_id: string }).quote_id
      }
      const documentOf = (partner: string, quoteId: string) =>
        fetch(`${limited.url}/insurance/car/quotes/${quoteId}/document`, { headers: asPartner(partner) })
      const busy = await quoteOf("bilhuset")
      const answers = []
      for (let request = 0; request < 4; request++) answers.push(await documentOf("bilhuset", busy))
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429])
      // the document window is the tighter one: its RateLimit headers
      expect(answers[0]!.headers.get("ratelimit-limit")).toBe("3")
      expect(answers[2]!.headers.get("ratelimit-remaining")).toBe("0")
      const refused = answers[3]!
      expect(refused.headers.get("content-type")).toContain("application/problem+json")
      expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/)
      expect(refused.headers.get("ratelimit-limit")).toBe("3")
      const problem = (await refused.json()) as { status: number; title: string; detail: string }
      expect(problem).toMatchObject({ status: 429, title: "Too Many Requests" })
      expect(problem.detail).toContain("3 documents printed a minute")
      expect(problem.detail).toContain("document rate limit")
      // the partner's other requests are within their own limit
      const retrieved = await fetch(`${limited.url}/insurance/car/quotes/${busy}`, { headers: asPartner("bilhuset") })
      expect(retrieved.status).toBe(200)
      expect(retrieved.headers.get("ratelimit-limit")).toBe("6000")
      // another partner's documents are printed
      const other = await documentOf("autohuset", await quoteOf("autohuset"))
      expect(other.status).toBe(200)
      expect(other.headers.get("content-type")).toBe("application/pdf")
    } finally {
      await limited.stop()
    }
  })

  it("prints every one of a burst of documents within the limit and the queue", async () => {
    const service = await startTestService({ environment: { KASKO_DOCUMENT_RATE_LIMIT_PER_MINUTE: "100" } })
    try {
      const created = await fetch(`${service.url}/insurance/car/quotes`, {
        method: "POST",
        headers: { ...asPartner("bilhuset"), "content-type": "application/json" },
        body: JSON.stringify(Examples.quoteRequest())
      })
      const quoteId = ((await created.json()) as { quote_id: string }).quote_id
      // 12 at once: 2 print, 10 wait (a partner's share of the queue; the next would be answered 429)
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          fetch(`${service.url}/insurance/car/quotes/${quoteId}/document`, { headers: asPartner("bilhuset") })
        )
      )
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 12 }, () => 200))
      const bodies = await Promise.all(answers.map(async (answer) => Buffer.from(await answer.arrayBuffer())))
      for (const body of bodies) expect(body.subarray(0, 5).toString()).toBe("%PDF-")
    } finally {
      await service.stop()
    }
  })
})

describe.skipIf(skipPoppler)("the documents served", () => {
  it("are the documents the engine writes: the IPID's sections, the quote's masked CPR number", async () => {
    const ipid = await bytesOf(IPID)
    expect(pdfLines(ipid.bytes)).toContain("Hvad dækker forsikringen?")
    const own = service.partners["bilhuset"]!.headers
    const quote = await service.client.request("POST", "/insurance/car/quotes", {
      headers: own,
      body: Examples.quoteRequest()
    })
    const document = await bytesOf(`/insurance/car/quotes/${quote.body.quote_id}/document`, own)
    const lines = pdfLines(document.bytes)
    expect(lines).toContain("CPR-nummer xxxxxx-1234")
    expect(lines).toContain(`Policenummer ${quote.body.policies[0].policy_number}`)
    expect(lines.join("\n")).not.toContain("0101901234")
  })
})
