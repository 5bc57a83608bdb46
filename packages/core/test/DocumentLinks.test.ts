/**
 * The links a quote answers are the ones configured when it answers, and the events a store writes keep the
 * links of their moment.
 */
import { describe, expect, it } from "vitest"
import { quoteAnswer } from "../src/Examples.js"
import { documentPaths, keptByInsurer, servedBy, type DocumentLinksShape } from "../src/ports/DocumentLinks.js"
import { withCurrentLinks, type QuoteContent } from "../src/quote/Quote.js"

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
  it.each(LINKS)("are %s when those are the links configured", (_name, links) => {
    const content = contentOf()
    const relinked = withCurrentLinks(content, links)
    expect(relinked.policies[0]!.ipid_href).toBe(links.ipidHref("insurance-car-leasing", "standard"))
    expect(relinked.privacy.policy_href).toBe(links.privacyPolicyHref())
    // nothing else of the quote changes
    expect({ ...relinked, policies: [], privacy: {} }).toEqual({ ...content, policies: [], privacy: {} })
    expect({ ...relinked.policies[0], ipid_href: "" }).toEqual({ ...content.policies[0], ipid_href: "" })
  })

  it("are the stored ones when none are given (an event keeps the links of its moment)", () => {
    const content = contentOf()
    expect(withCurrentLinks(content, undefined)).toBe(content)
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
