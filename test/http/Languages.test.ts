/**
 * English on request over HTTP (issue 47, part 3), with real credentials: `Accept-Language` chooses Danish (the
 * default, and the answer when nothing matches) or English for a product's definition and the documents, said by
 * `Content-Language` with `Vary: Accept-Language`; a Danish answer is byte for byte the one a request without the
 * header gets. Problems are in English whichever is asked for, and say so. Every JSON answer is checked against the
 * served OpenAPI document, which lists the header.
 */
import { Examples } from "@kasko/core"
import { describe, expect, it } from "vitest"
import { pdfText, skipPoppler } from "../documents/Poppler.js"
import { serviceWithPartners } from "./credentials.js"

const service = serviceWithPartners("languages", ["bilhuset"], {
  KASKO_RATE_LIMIT_PER_MINUTE: "200",
  KASKO_CORS_ORIGINS: "https://dealer.example"
})
const PRODUCT = "/products/insurance-car-leasing"
const IPID = "/products/insurance-car-leasing/variants/standard/ipid"

const partner = () => service.partners["bilhuset"]!.headers

const fetched = async (path: string, headers: Record<string, string> = {}) => {
  const answer = await fetch(`${service.server.url}${path}`, { headers })
  return { answer, bytes: new Uint8Array(await answer.arrayBuffer()) }
}

describe("a product's definition in the language asked for", () => {
  it("is English for Accept-Language: en, a range of it (en-GB) or the heaviest weight", async () => {
    for (const acceptLanguage of ["en", "en-GB", "da;q=0.4, en-US;q=0.8", "de, en;q=0.1"]) {
      const answer = await service.client.request("GET", PRODUCT, {
        headers: { ...partner(), "accept-language": acceptLanguage }
      })
      expect(answer.status, acceptLanguage).toBe(200)
      expect(answer.headers.get("content-language"), acceptLanguage).toBe("en")
      expect(answer.headers.get("vary"), acceptLanguage).toContain("Accept-Language")
      expect(answer.body.title).toBe("Partner car insurance, leasing")
      const policyHolder = answer.body.parameters.find((parameter: any) => parameter.name === "policy_holder")
      expect(policyHolder.title).toBe("Policyholder")
      expect(policyHolder.options.map((option: any) => option.title)).toEqual(["Private person", "Business"])
      expect(answer.body.features[1].description).toMatch(/^Standard with extended covers/)
    }
  })

  it("is Danish, byte for byte as without the header, when Danish weighs more, nothing matches or English is refused", async () => {
    const without = await service.client.request("GET", PRODUCT, { headers: partner() })
    expect(without.headers.get("content-language")).toBe("da")
    expect(without.headers.get("vary")).toContain("Accept-Language")
    expect(without.body.title).toBe("Partnerbilforsikring, leasing")
    for (const acceptLanguage of ["da", "da-DK", "en;q=0.5, da", "de, fr", "*", "en;q=0, *", "en, da", "xx-;;q=9"]) {
      const answer = await service.client.request("GET", PRODUCT, {
        headers: { ...partner(), "accept-language": acceptLanguage }
      })
      expect(answer.status, acceptLanguage).toBe(200)
      expect(answer.headers.get("content-language"), acceptLanguage).toBe("da")
      expect(answer.text, acceptLanguage).toBe(without.text)
    }
  })

  it("keeps what CORS says the answer varies with", async () => {
    const answer = await service.client.request("GET", PRODUCT, {
      headers: { ...partner(), origin: "https://dealer.example", "accept-language": "en" }
    })
    expect(answer.headers.get("access-control-allow-origin")).toBe("https://dealer.example")
    expect(answer.headers.get("vary")).toMatch(/Origin/)
    expect(answer.headers.get("vary")).toMatch(/Accept-Language/)
  })
})

describe("a problem, whatever the language asked for", () => {
  it("is the same English problem with its violations, and says it is English", async () => {
    const body = Examples.offerRequest(Examples.standardParameters({ vehicle_price: "12", policy_holder: "company" }))
    const answers = await Promise.all(
      [undefined, "da", "en"].map((acceptLanguage) =>
        service.client.request("POST", "/insurance/car/offers", {
          headers: { ...partner(), ...(acceptLanguage === undefined ? {} : { "accept-language": acceptLanguage }) },
          body
        })
      )
    )
    for (const answer of answers) {
      expect(answer.status).toBe(400)
      expect(answer.headers.get("content-language")).toBe("en")
      expect(answer.text).toBe(answers[0]!.text)
    }
    expect(answers[0]!.body.title).toBe("Constraint Violation")
    expect(answers[0]!.body.violations.map((violation: any) => violation.field)).toEqual([
      "product.parameters.policy_holder",
      "product.parameters.vehicle_price"
    ])
  })

  it("a product not found is English too", async () => {
    const answer = await service.client.request("GET", "/products/insurance-boat", {
      headers: { ...partner(), "accept-language": "da" }
    })
    expect(answer.status).toBe(404)
    expect(answer.headers.get("content-language")).toBe("en")
    expect(answer.body.detail).toMatch(/^No product with product_name "insurance-boat"/)
  })
})

describe("the documents in the language asked for", () => {
  it("the IPID: its own ETag per language, Content-Language and Vary on the 200 and the 304", async () => {
    const danish = await fetched(IPID)
    const english = await fetched(IPID, { "accept-language": "en-GB" })
    expect(danish.answer.headers.get("content-language")).toBe("da")
    expect(english.answer.headers.get("content-language")).toBe("en")
    expect(english.answer.headers.get("vary")).toContain("Accept-Language")
    expect(english.answer.headers.get("cache-control")).toBe("public, max-age=3600")
    const etag = english.answer.headers.get("etag")!
    expect(etag).not.toBe(danish.answer.headers.get("etag"))
    const notModified = await fetched(IPID, { "accept-language": "en", "if-none-match": etag })
    expect(notModified.answer.status).toBe(304)
    expect(notModified.answer.headers.get("content-language")).toBe("en")
    expect(notModified.answer.headers.get("vary")).toContain("Accept-Language")
    // the Danish document's ETag does not stand for the English one
    const other = await fetched(IPID, { "accept-language": "da", "if-none-match": etag })
    expect(other.answer.status).toBe(200)
    expect(Buffer.from(other.bytes).equals(Buffer.from(danish.bytes))).toBe(true)
  })

  it("the privacy policy and a quote's document, under their names", async () => {
    for (const [language, size] of [
      ["da", "tilbud"],
      ["en", "quote"]
    ] as const) {
      const policy = await fetched("/privacy-policy", { "accept-language": language })
      expect(policy.answer.status).toBe(200)
      expect(policy.answer.headers.get("content-language")).toBe(language)
      const quote = await service.client.request("POST", "/insurance/car/quotes", {
        headers: partner(),
        body: Examples.quoteRequest()
      })
      const document = await fetched(`/insurance/car/quotes/${quote.body.quote_id}/document`, {
        ...partner(),
        "accept-language": language
      })
      expect(document.answer.status).toBe(200)
      expect(document.answer.headers.get("content-language")).toBe(language)
      expect(document.answer.headers.get("vary")).toContain("Accept-Language")
      expect(document.answer.headers.get("content-disposition")).toBe(
        `inline; filename="${size}-${quote.body.quote_id}.pdf"`
      )
    }
  })
})

describe.skipIf(skipPoppler)("the documents' words over HTTP", () => {
  it("are English when English is asked for, and Danish otherwise", async () => {
    const english = pdfText((await fetched(IPID, { "accept-language": "en" })).bytes)
    const danish = pdfText((await fetched(IPID, { "accept-language": "en;q=0, da" })).bytes)
    expect(english).toContain("What is insured?")
    expect(english).not.toContain("Hvad dækker forsikringen?")
    expect(danish).toContain("Hvad dækker forsikringen?")
    const policy = pdfText((await fetched("/privacy-policy", { "accept-language": "en" })).bytes)
    expect(policy).toContain("Who is responsible for your data?")
    const quote = await service.client.request("POST", "/insurance/car/quotes", {
      headers: partner(),
      body: Examples.quoteRequest()
    })
    const document = pdfText(
      (
        await fetched(`/insurance/car/quotes/${quote.body.quote_id}/document`, {
          ...partner(),
          "accept-language": "en"
        })
      ).bytes
    )
    expect(document).toContain("Car insurance quote")
    expect(document).toContain(quote.body.policies[0].policy_number)
  })
})

describe("the OpenAPI document", () => {
  it("lists Accept-Language where it chooses the words, and Content-Language on the answers", () => {
    const paths = service.client.document.paths as Record<string, any>
    const acceptLanguage = (path: string) =>
      paths[path]!.get.parameters?.find((parameter: any) => parameter.name === "Accept-Language")
    for (const path of [
      "/products/{product_name}",
      "/products/{product_name}/variants/{variant}/ipid",
      "/privacy-policy",
      "/insurance/car/quotes/{quote_id}/document"
    ]) {
      expect(acceptLanguage(path), path).toMatchObject({ in: "header", required: false })
      expect(Object.keys(paths[path]!.get.responses["200"].headers), path).toEqual(
        expect.arrayContaining(["Content-Language", "Vary"])
      )
    }
    expect(acceptLanguage("/insurance/car/quotes/{quote_id}")).toBeUndefined()
    expect(Object.keys(paths["/insurance/car/offers"]!.post.responses["400"].headers)).toContain("Content-Language")
  })
})
