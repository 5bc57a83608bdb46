import { describe, expect, it } from "vitest"
import { negotiateLanguage } from "../src/Language.js"

describe("the language of an answer, from Accept-Language", () => {
  it("is Danish when the request names no language", () => {
    expect(negotiateLanguage(undefined)).toBe("da")
    expect(negotiateLanguage("")).toBe("da")
  })

  it("is the language the request names, in any case", () => {
    expect(negotiateLanguage("en")).toBe("en")
    expect(negotiateLanguage("EN")).toBe("en")
    expect(negotiateLanguage("da")).toBe("da")
    expect(negotiateLanguage("da-DK")).toBe("da")
  })

  it("takes a range with a region or script for its language (en-GB, en-Latn-US)", () => {
    expect(negotiateLanguage("en-GB")).toBe("en")
    expect(negotiateLanguage("en-Latn-US")).toBe("en")
  })

  it("does not take a range that only begins with the language's letters", () => {
    expect(negotiateLanguage("eng")).toBe("da")
    expect(negotiateLanguage("dan, en;q=0.1")).toBe("en")
  })

  it("is the language of the highest weight", () => {
    expect(negotiateLanguage("da;q=0.5, en;q=0.9")).toBe("en")
    expect(negotiateLanguage("en;q=0.5, da;q=0.9")).toBe("da")
    expect(negotiateLanguage("de, en-US;q=0.8, da;q=0.7")).toBe("en")
    expect(negotiateLanguage("en;q=0.001")).toBe("en")
  })

  it("is Danish on a tie, whatever the order", () => {
    expect(negotiateLanguage("en, da")).toBe("da")
    expect(negotiateLanguage("en;q=0.5, da;q=0.5")).toBe("da")
  })

  it("is Danish when nothing kasko writes is asked for", () => {
    expect(negotiateLanguage("de")).toBe("da")
    expect(negotiateLanguage("de, fr;q=0.9")).toBe("da")
  })

  it("takes * for any language: Danish, unless a weightier range names English", () => {
    expect(negotiateLanguage("*")).toBe("da")
    expect(negotiateLanguage("en;q=0.9, *;q=0.1")).toBe("en")
  })

  it("never answers a language the request refuses with q=0", () => {
    expect(negotiateLanguage("da;q=0, en;q=0.1")).toBe("en")
    expect(negotiateLanguage("*, da;q=0")).toBe("en")
    expect(negotiateLanguage("en;q=0")).toBe("da")
    expect(negotiateLanguage("en-GB;q=0, *")).toBe("da")
  })

  it("takes a region refused with q=0 as refusing that region, not the language kasko writes", () => {
    expect(negotiateLanguage("en, en-GB;q=0")).toBe("en")
    expect(negotiateLanguage("en-GB;q=0, en;q=0.6, da;q=0.5")).toBe("en")
    expect(negotiateLanguage("en-GB;q=0")).toBe("da")
    expect(negotiateLanguage("da, da-DK;q=0, en;q=0.5")).toBe("da")
  })

  it("weighs a language by its most specific range", () => {
    // en-GB weighs more than en for English, and * names Danish only
    expect(negotiateLanguage("en-GB;q=0.8, en;q=0.2, *;q=0.5")).toBe("en")
    expect(negotiateLanguage("en;q=0, en-GB;q=0.9")).toBe("en")
    expect(negotiateLanguage("*;q=0.9, en;q=0.3")).toBe("da")
  })

  it("leaves out a malformed element, not the whole header", () => {
    expect(negotiateLanguage("en;q=2, da;q=0.1")).toBe("da")
    expect(negotiateLanguage("en;q=abc")).toBe("da")
    expect(negotiateLanguage("en;q=0.1234")).toBe("da")
    expect(negotiateLanguage("12, en")).toBe("en")
    expect(negotiateLanguage(" en ; q = 0.7 , da;q=0.6")).toBe("en")
    expect(negotiateLanguage(",,,en,")).toBe("en")
    expect(negotiateLanguage("en;charset=utf-8")).toBe("en")
  })

  it("reads every Accept-Language line a request carries", () => {
    expect(negotiateLanguage(["da;q=0.2", "en;q=0.8"])).toBe("en")
  })
})
