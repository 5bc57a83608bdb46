/**
 * The documents in English (issue 47, part 3), read back with pdftotext as a customer reads them: the IPID, a
 * quote's document and the privacy policy say in English what the Danish ones say in Danish — the frame's
 * headings and labels, the product's titles and terms from its document's translation, amounts in DKK with
 * English separators — and no Danish word of theirs is left; the figures are the same engine's. Their first pages
 * are pictured beside the Danish ones in docs/documents (KASKO_WRITE_DOCUMENT_PICTURES=1).
 */
import { Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { PdfDocuments } from "@kasko/documents"
import { MemoryQuoteStore } from "@kasko/memory"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { NOW } from "../support.js"
import { firstPagePicture, pdfLines, pdfText, skipPoppler } from "./Poppler.js"

const engine = Layer.mergeAll(
  MemoryQuoteStore.layer,
  IdGenerator.layerSequential,
  TariffBook.shipped,
  PdfDocuments.layer()
)

const onEngine = <A, E>(program: Effect.Effect<A, E, Layer.Success<typeof engine> | TestClock.TestClock>): Promise<A> =>
  Effect.runPromise(
    Effect.andThen(TestClock.setTime(NOW), program).pipe(Effect.provide(Layer.mergeAll(engine, TestClock.layer())))
  )

// the Danish words of the documents' frames and of the leasing product: none may be left in an English document
const DANISH_WORDS = [
  "Hvad dækker",
  "Hvilke forpligtelser",
  "Dækning",
  "Forsikringssum",
  "Selvrisiko",
  "Med i",
  "ingen",
  " kr.",
  " og ",
  " eller ",
  "Tarif ",
  "gældende",
  "Partnerbilforsikring",
  "privat",
  "Lånebil",
  "Vejhjælp",
  "Betalinger pr. år",
  "Tilbud",
  "Policenummer",
  "Køretøj",
  "Forsikringstager",
  "Afventer",
  "Privatperson",
  "Privatlivspolitik",
  "Side "
]

/** The Danish words in a text, each as a word of its own ("privat", not "private"). */
const danishLeftIn = (text: string) =>
  DANISH_WORDS.filter((word) =>
    new RegExp(`(?<!\\p{L})${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?!\\p{L})`, "u").test(text)
  )

/** A Standard leasing quote paid monthly, as the Danish quote document's picture shows one. */
const monthlyRequest = () =>
  Examples.quoteRequest(
    Examples.standardParameters({ payments_per_year: "12", vehicle_price: "350000", youngest_user_age: "23" }),
    "insurance-car-leasing",
    "premium"
  )

describe.skipIf(skipPoppler)("the documents in English", () => {
  it("the IPID: the regulation's headings, the product's English terms and coverages, amounts in DKK", async () => {
    const [english, danish] = await onEngine(
      Effect.all([
        QuotingService.getProductInformation("insurance-car-leasing", "standard", "en"),
        QuotingService.getProductInformation("insurance-car-leasing", "standard")
      ])
    )
    const text = pdfText(english.document.bytes)
    const lines = pdfLines(english.document.bytes)
    // the title is long enough to break over two lines
    expect(lines.slice(0, 2).join(" ")).toBe("Insurance Product Information Document (IPID)")
    expect(text).toContain("Page 1 of 2")
    expect(lines).toContain("Partner car insurance, leasing – Standard, private")
    for (const heading of [
      "What is this type of insurance?",
      "What is insured?",
      "What is not insured?",
      "Are there any restrictions on cover?",
      "Where am I covered?",
      "What are my obligations?",
      "When and how do I pay?",
      "When does the cover start and end?",
      "How do I cancel the contract?"
    ])
      expect(lines, heading).toContain(heading)
    expect(lines.find((line) => line.startsWith("Cover Included in"))).toBe("Cover Included in Sum insured Deductible")
    expect(lines.some((line) => /^Comprehensive (Standard and Premium|Standard|Premium) /.test(line))).toBe(true)
    expect(text).toMatch(/DKK \d{1,3},\d{3}/)
    expect(text).toContain("Payments per year: 1 or 12.")
    expect(text).toContain("With 12 payments a year,")
    expect(danishLeftIn(text)).toEqual([])
    // the same document in Danish, as it was
    expect(pdfLines(danish.document.bytes)).toContain("Hvad dækker forsikringen?")
    expect(english.version).not.toBe(danish.version)
    firstPagePicture(english.document.bytes, "ipid-insurance-car-leasing-standard.en")
  })

  it("the IPID of the other product and variant is English too", async () => {
    const english = await onEngine(QuotingService.getProductInformation("insurance-car-standalone", "extended", "en"))
    const text = pdfText(english.document.bytes)
    expect(text).toContain("Partner car insurance, standalone – Extended, business")
    expect(text).toContain("Legal aid")
    expect(danishLeftIn(text)).toEqual([])
  })

  it("a quote's document: labels, the product's titles and its parameters' options, prices in DKK", async () => {
    const { quote, english } = await onEngine(
      Effect.gen(function* () {
        const quote = yield* QuotingService.createQuote("bilhuset", monthlyRequest())
        const english = yield* QuotingService.getQuoteDocument("bilhuset", quote.quote_id, "en")
        return { quote, english }
      })
    )
    const text = pdfText(english.bytes)
    const lines = pdfLines(english.bytes)
    expect(lines).toContain("Car insurance quote")
    expect(lines).toContain(`Policy number ${quote.policies[0]!.policy_number}`)
    expect(lines).toContain("Status Awaiting activation")
    expect(lines).toContain("CPR number xxxxxx-1234")
    expect(lines).toContain("Roles policyholder, user")
    expect(lines).toContain("Vehicle type Passenger car (code 01)")
    expect(lines).toContain("Use Private driving (code 01)")
    expect(lines).toContain("Product Partner car insurance, leasing")
    expect(lines).toContain("Variant Standard, private")
    expect(lines).toContain("Cover level Premium")
    expect(lines).toContain("Youngest user's age 23")
    expect(lines).toContain("Payments per year 12")
    expect(lines).toContain("Vehicle price DKK 350,000")
    expect(lines.some((line) => /^Price per payment DKK [\d,]+ \(12 payments a year\)$/.test(line))).toBe(true)
    expect(lines.some((line) => /^Of which \S+ DKK [\d,]+\.\d\d per payment$/.test(line))).toBe(true)
    expect(lines.some((line) => /^Created \d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d \(Danish time\)$/.test(line))).toBe(true)
    expect(text).toContain("Product information (IPID)")
    expect(text).toContain("Privacy policy")
    expect(danishLeftIn(text)).toEqual([])
    firstPagePicture(english.bytes, "quote.en")
  })

  it("the privacy policy", async () => {
    const english = await onEngine(QuotingService.getPrivacyPolicyIn("en"))
    const text = pdfText(english.document.bytes)
    expect(text).toContain("Privacy policy")
    expect(text).toContain("Who is responsible for your data?")
    expect(text).toContain("Your rights")
    expect(danishLeftIn(text)).toEqual([])
  })
})
