/**
 * The links a quote answers are the ones configured when it answers: the kept JSON text and the parsed content
 * give the same bytes under any links, a client's text that looks like a link is left alone, and the events a
 * store writes keep the links of their moment.
 */
import { describe, expect, it } from "vitest"
import { quoteAnswer } from "../src/Examples.js"
import { documentPaths, keptByInsurer, servedBy, type DocumentLinksShape } from "../src/ports/DocumentLinks.js"
import type { QuoteContent } from "../src/quote/Quote.js"
import { relinkedContent, relinkedText } from "../src/quote/QuoteLifecycle.js"

const contentOf = (): QuoteContent => {
  const { status: _status, expires_at: _expiresAt, ...content } = quoteAnswer()
  return content
}

const LINKS: ReadonlyArray<[string, DocumentLinksShape]> = [
  ["kasko's own paths", servedBy(() => "")],
  ["kasko's own, under a public URL and base path", servedBy(() => "https://api.forsikring.example/partner/car/v1")],
  [
    "the insurer's",
    keptByInsurer(
      {
        documentsBaseUrl: "https://dokumenter.forsikring.example/",
        privacyPolicyUrl: "https://forsikring.example/privat"
      },
      servedBy(() => "")
    )
  ],
  [
    "links needing JSON escapes",
    keptByInsurer(
      { documentsBaseUrl: 'https://x.example/"q"\\' },
      servedBy(() => "https://ø.example")
    )
  ]
]

describe("a quote's document links", () => {
  it.each(LINKS)("are %s alike from the kept text and from the content", (_name, links) => {
    const content = contentOf()
    const relinked = relinkedContent(content, links)
    expect(relinkedText(JSON.stringify(content), links)).toBe(JSON.stringify(relinked))
    expect(relinked.policies[0]!.ipid_href).toBe(links.ipidHref("insurance-car-leasing", "standard"))
    expect(relinked.privacy.policy_href).toBe(links.privacyPolicyHref())
  })

  it("leave the text and the content as they are when the links are current, or none are given", () => {
    const content = contentOf()
    const text = JSON.stringify(content)
    expect(relinkedText(text, undefined)).toBe(text)
    expect(relinkedContent(content, undefined)).toBe(content)
    const current = servedBy(() => "")
    expect(relinkedContent(content, current)).toBe(content)
    expect(relinkedText(text, current)).toBe(text)
  })

  it("leave alone a client's text that looks like a link", () => {
    const content = contentOf()
    const policy = content.policies[0]!
    const forged: QuoteContent = {
      ...content,
      policies: [
        {
          ...policy,
          insurable_object: {
            vehicle: {
              ...policy.insurable_object.vehicle,
              model: '"ipid_href":"https://evil.example" "privacy":{"policy_href":"x"}'
            }
          }
        }
      ]
    }
    const links = servedBy(() => "https://api.example")
    const text = relinkedText(JSON.stringify(forged), links)
    expect(JSON.parse(text)).toEqual(relinkedContent(forged, links))
    expect(JSON.parse(text).policies[0].insurable_object.vehicle.model).toBe(
      forged.policies[0]!.insurable_object.vehicle.model
    )
  })

  it("name kasko's own documents by product and variant below the API's root", () => {
    expect(documentPaths.ipid("insurance-car-standalone", "extended")).toBe(
      "/products/insurance-car-standalone/variants/extended/ipid"
    )
    const links = keptByInsurer(
      { documentsBaseUrl: "https://d.example/kasko/" },
      servedBy(() => "https://api.example")
    )
    expect(links.ipidHref("insurance-car-leasing", "extended")).toBe(
      "https://d.example/kasko/ipid/insurance-car-leasing-extended.pdf"
    )
    expect(links.privacyPolicyHref()).toBe("https://api.example/privacy-policy")
  })
})
