/**
 * A quote's document for the customer, read back with pdftotext: the insurer, the partner and its agent, the
 * parties as registered with their CPR numbers masked but for the last four digits (and never whole), the
 * vehicle, the product and variant, every coverage with the limit and deductible the quote answers, the price
 * per payment with each of its `price.details`, the day its prices are of, when it was created and until when it
 * is valid, and whether it is activated (with its quote number once it is) — each figure the engine's. Written
 * for the customer: Danish local time, amounts with thousands separators, no API names, no number the quote's
 * JSON does not carry, each link whole on its line. Found as the quote is: not for another partner, not after
 * 30 days (a sandbox's quote, 7).
 */
import { DocumentLinks, Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { Sandbox } from "@kasko/core/administration"
import { PdfDocuments } from "@kasko/documents"
import { MemoryQuoteStore } from "@kasko/memory"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { NOW } from "../support.js"
import {
  danishDecimalKroner,
  danishKroner,
  firstPagePicture,
  pdfLines,
  pdfRawText,
  pdfText,
  skipPoppler
} from "./Poppler.js"

const TITLES: Readonly<Record<string, string>> = {
  kasko: "Kasko",
  ansvar: "Lovpligtig ansvarsforsikring",
  påkørsel_af_dyr: "Påkørsel af dyr",
  lånebil: "Lånebil",
  udvidet_glas: "Udvidet glasdækning",
  udvidet_førerulykke: "Udvidet førerulykke",
  afleveringsforsikring: "Afleveringsforsikring",
  vejhjælp: "Vejhjælp",
  førerulykke: "Førerulykke",
  retshjælp: "Retshjælp",
  redning_i_udlandet: "Redning i udlandet",
  friskade: "Friskade",
  statsafgift: "Statsafgift"
}

const engine = Layer.mergeAll(
  MemoryQuoteStore.layer,
  IdGenerator.layerSequential,
  TariffBook.shipped,
  PdfDocuments.layer()
)

/**
 * Runs a program on a fresh engine whose clock stands at `now` (NOW unless given), its documents linked to where
 * `links` says (kasko's own paths unless given).
 */
const onEngine = <A, E>(
  program: Effect.Effect<A, E, Layer.Success<typeof engine> | TestClock.TestClock>,
  { now = NOW, links }: { readonly now?: number; readonly links?: DocumentLinks.DocumentLinksShape } = {}
): Promise<A> =>
  Effect.runPromise(
    Effect.andThen(TestClock.setTime(now), program).pipe(
      Effect.provide(Layer.mergeAll(engine, TestClock.layer())),
      links === undefined ? (effect) => effect : Effect.provideService(DocumentLinks.DocumentLinks, links)
    )
  )

const CPR = "0101901234"

/** A Standard leasing quote paid monthly, for a person whose address is protected beside the example's parties. */
const monthlyRequest = () => {
  const request = Examples.quoteRequest(
    Examples.standardParameters({ payments_per_year: "12", vehicle_price: "350000", youngest_user_age: "23" }),
    "insurance-car-leasing",
    "premium"
  )
  const parties = [
    ...request.policy.parties,
    {
      vehicle_user: true,
      person: { cpr_number: "2512851122", first_name: "Åse", last_name: "Ørnbøl" },
      address: { protected: true, street: "Hemmeligvej", house_number: "3", postal_code: 2100, city: "København Ø" }
    }
  ]
  return { ...request, policy: { ...request.policy, parties } }
}

interface Printed {
  readonly quote: any
  readonly pdf: Uint8Array
}

const printedQuote = (request: unknown, activate: boolean) =>
  Effect.gen(function* () {
    const created = yield* QuotingService.createQuote("bilhuset", request)
    if (activate) {
      yield* TestClock.adjust("2 hours")
      yield* QuotingService.activateQuote("bilhuset", created.quote_id)
    }
    const retrieved = yield* QuotingService.getQuote("bilhuset", created.quote_id)
    const document = yield* QuotingService.getQuoteDocument("bilhuset", created.quote_id)
    const printed: Printed = { quote: retrieved.quote, pdf: document.bytes }
    return printed
  })

describe.skipIf(skipPoppler)("a quote's document", () => {
  it("of a sandbox quote says TEST on every page, and a production quote's says it on none", async () => {
    const sandbox = Sandbox.sandboxOwnerOf("bilhuset")
    const { test, real } = await onEngine(
      Effect.gen(function* () {
        const created = yield* QuotingService.createQuote(sandbox, monthlyRequest())
        const test = yield* QuotingService.getQuoteDocument(sandbox, created.quote_id)
        const real = (yield* printedQuote(monthlyRequest(), false)).pdf
        return { test: test.bytes, real }
      })
    )
    const testPages = pdfRawText(test)
      .split("\f")
      .filter((page) => page.trim() !== "")
    expect(testPages.length).toBeGreaterThan(1)
    for (const page of testPages) expect(page).toMatch(/^TEST$/m)
    expect(pdfRawText(real)).not.toMatch(/^TEST$/m)
    // valid as long as its expires_at says: 7 days in the sandbox (09.00 UTC, 10.00 in Copenhagen), 30 in production
    expect(pdfLines(test)).toContain("Gyldigt til 9. marts 2026 kl. 10.00")
    expect(pdfLines(real)).toContain("Gyldigt til 1. april 2026 kl. 11.00")
  })

  it("shows the insurer, the partner and agent, the parties with masked CPR numbers, the vehicle and the product", async () => {
    const printed = await onEngine(printedQuote(monthlyRequest(), false))
    const text = pdfText(printed.pdf)
    const lines = pdfLines(printed.pdf)
    expect(text).toContain("Tilbud på bilforsikring")
    expect(lines).toContain("Forsikringsselskab Kasko Forsikring A/S, CVR 12345674")
    expect(lines).toContain("Adresse Forsikringsvej 1, 2100 København Ø")
    expect(lines).toContain("Formidler Bilhuset Øst A/S, CVR 12345690")
    expect(lines).toContain("P-nummer 1012345678")
    expect(lines).toContain("Sælger agent-7")
    // the parties as registered: names, roles, address, contact; CPR numbers masked, CVR numbers shown
    expect(lines).toEqual(
      expect.arrayContaining([
        "Part 1 Søren Kierkegård",
        "CPR-nummer xxxxxx-1234",
        "Roller forsikringstager, bruger",
        "Adresse Æblevej 7, 2 tv, 8000 Aarhus C",
        "Telefon +45 12 34 56 78",
        "E-mail soeren@example.dk",
        "Part 2 Leasing Partner ApS",
        "CVR-nummer 12345682",
        "Roller ejer",
        "Part 3 Åse Ørnbøl",
        "CPR-nummer xxxxxx-1122",
        "Roller bruger",
        "Adresse Adressebeskyttet"
      ])
    )
    expect(text).not.toContain("Hemmeligvej")
    // the vehicle, coded as the quote codes it
    expect(lines).toContain("Mærke og model Škoda Enyaq 80 iV")
    expect(lines).toContain("Stelnummer (VIN) TMBJB7NY5MF012345")
    expect(lines).toContain("Registreringsnummer AB 12 345")
    expect(lines).toContain("Køretøjstype Personbil (kode 01)")
    expect(lines).toContain("Anvendelse Privat personkørsel (kode 01)")
    // the product and variant: the quote's product name, the catalogue's titles, the parameters
    expect(lines).toContain("Produkt Partnerbilforsikring, leasing")
    expect(printed.quote.product.product_name).toBe("private-insurance-car-leasing")
    expect(lines).toContain("Variant Standard, privat")
    expect(lines).toContain("Dækningsniveau Premium")
    expect(lines).toContain("Yngste brugers alder 23")
    expect(lines).toContain("Betalinger pr. år 12")
    expect(lines).toContain("Køretøjets pris 350.000 kr.")
    firstPagePicture(printed.pdf, "quote")
  })

  it("shows no CPR number whole, in any form", async () => {
    const text = pdfText((await onEngine(printedQuote(monthlyRequest(), false))).pdf)
    const digitsOnly = text.replace(/\D/g, "")
    for (const cpr of [CPR, "2512851122"]) {
      expect(digitsOnly).not.toContain(cpr)
      expect(text).not.toContain(`${cpr.slice(0, 6)}-${cpr.slice(6)}`)
      // nor the birth date it starts with
      expect(text).not.toContain(cpr.slice(0, 6))
    }
  })

  it("prints the youngest user's age, never the birth date that with a CPR number's last four digits gives it whole", async () => {
    // the birth date of the example's policy holder, whose CPR number 0101901234 shows as xxxxxx-1234
    const request = Examples.quoteRequest(
      Examples.standardParameters({ youngest_user_birthdate: "1990-01-01" }),
      "insurance-car-leasing",
      "standard"
    )
    expect(request.policy.parties.some((party) => party.person?.cpr_number === CPR)).toBe(true)
    const printed = await onEngine(printedQuote(request, false))
    expect(printed.quote.product.parameters.youngest_user_birthdate).toBe("1990-01-01")
    const text = pdfText(printed.pdf)
    const lines = pdfLines(printed.pdf)
    for (const form of ["1990-01-01", "1. januar 1990", "01.01.1990", "010190", CPR]) expect(text).not.toContain(form)
    const digitsOnly = text.replace(/\D/g, "")
    for (const form of ["19900101", "010190", "01011990", CPR]) expect(digitsOnly).not.toContain(form)
    expect(text).not.toContain("fødselsdato")
    // 36 on 2 March 2026, the day the quote was made
    expect(lines).toContain("Yngste brugers alder 36")
    expect(lines).toContain("CPR-nummer xxxxxx-1234")
  })

  it("prints the youngest user's age once when the request gives both the age and the birth date", async () => {
    const request = Examples.quoteRequest(
      Examples.standardParameters({ youngest_user_age: "36", youngest_user_birthdate: "1990-01-01" }),
      "insurance-car-leasing",
      "standard"
    )
    const lines = pdfLines((await onEngine(printedQuote(request, false))).pdf)
    expect(lines.filter((line) => line.startsWith("Yngste brugers"))).toEqual(["Yngste brugers alder 36"])
  })

  it("lists every coverage with the quote's limit and deductible, and the price per payment with its details", async () => {
    const printed = await onEngine(printedQuote(monthlyRequest(), false))
    const lines = pdfLines(printed.pdf)
    const policy = printed.quote.policies[0]!
    expect(policy.coverages.length).toBeGreaterThanOrEqual(8)
    for (const coverage of policy.coverages) {
      const limit = coverage.limit === undefined ? "–" : danishKroner(coverage.limit)
      const deductible = coverage.deductible === undefined ? "–" : danishKroner(coverage.deductible)
      expect(lines, coverage.name).toContain(`${TITLES[coverage.name]} ${coverage.id} ${limit} ${deductible}`)
    }
    const price = printed.quote.price
    expect(price.payments_per_year).toBe(12)
    expect(lines).toContain(`Pris pr. betaling ${danishKroner(price.amount)} (12 betalinger pr. år)`)
    expect(Object.keys(price.details).sort()).toEqual(["garantifondsbidrag", "miljøbidrag", "skadesforsikringsafgift"])
    for (const [charge, amount] of Object.entries(price.details as Record<string, string>))
      expect(lines).toContain(`Heraf ${charge} ${danishDecimalKroner(amount)} pr. betaling`)
  })

  it("shows the pricing day, the quote's numbers and times, and its state: awaiting activation, then activated with its quote number", async () => {
    const awaiting = await onEngine(printedQuote(monthlyRequest(), false))
    const awaitingLines = pdfLines(awaiting.pdf)
    expect(awaitingLines).toContain("Status Afventer aktivering")
    // 09.00 UTC is 10.00 in Copenhagen in March, and 30 days later, in summer time, 11.00
    expect(awaitingLines).toContain("Oprettet 2. marts 2026 kl. 10.00")
    expect(awaitingLines).toContain("Gyldigt til 1. april 2026 kl. 11.00")
    expect(awaitingLines).toContain("Priser pr. 2. marts 2026")
    expect(awaitingLines).toContain(`Policenummer ${awaiting.quote.policies[0].policy_number}`)
    expect(awaitingLines).toContain(`Tilbuds-id ${awaiting.quote.quote_id}`)
    // the quote's JSON gives no quote number before activation, and neither does its document
    expect(awaitingLines.filter((line) => line.includes("Tilbudsnummer"))).toEqual([])

    const activated = await onEngine(printedQuote(monthlyRequest(), true))
    const activatedLines = pdfLines(activated.pdf)
    expect(activated.quote.status).toBe("activated")
    expect(activatedLines).toContain("Status Aktiveret 2. marts 2026 kl. 12.00")
    expect(activatedLines).toContain(`Tilbudsnummer ${activated.quote.quote_number}`)
  })

  it("of an Extended quote shows the business product, no phone or e-mail, and the statsafgift line", async () => {
    const request = Examples.quoteRequest(
      Examples.standardParameters({
        policy_holder: "organization",
        vehicle_user: "organization",
        vehicle_usage: "godstransport"
      }),
      "insurance-car-standalone",
      "premium"
    )
    const printed = await onEngine(printedQuote(request, false))
    const lines = pdfLines(printed.pdf)
    expect(printed.quote.product.product_name).toBe("business-car-insurance-standalone")
    expect(lines).toContain("Produkt Partnerbilforsikring, standalone")
    expect(lines).toContain("Variant Udvidet, erhverv")
    expect(lines).toContain("Anvendelse Godstransport (kode 40)")
    expect(lines).toContain(`Pris pr. betaling ${danishKroner(printed.quote.price.amount)} (1 betaling pr. år)`)
    expect(lines).not.toContain("Telefon +45 12 34 56 78")
    for (const coverage of printed.quote.policies[0].coverages) {
      const limit = coverage.limit === undefined ? "–" : danishKroner(coverage.limit)
      const deductible = coverage.deductible === undefined ? "–" : danishKroner(coverage.deductible)
      expect(lines, coverage.name).toContain(`${TITLES[coverage.name]} ${coverage.id} ${limit} ${deductible}`)
    }
    expect(pdfText(printed.pdf)).not.toContain("@")
  })

  it("is found as the quote is: not for another partner, not for a malformed id, not once 30 days old", async () => {
    const failures = await onEngine(
      Effect.gen(function* () {
        const created = yield* QuotingService.createQuote("bilhuset", Examples.quoteRequest())
        const otherPartner = yield* Effect.flip(QuotingService.getQuoteDocument("another-partner", created.quote_id))
        const malformed = yield* Effect.flip(QuotingService.getQuoteDocument("bilhuset", "not-a-quote"))
        yield* TestClock.adjust("30 days")
        const expired = yield* Effect.flip(QuotingService.getQuoteDocument("bilhuset", created.quote_id))
        return [otherPartner, malformed, expired]
      })
    )
    expect(failures.map((failure) => failure._tag)).toEqual(["QuoteNotFound", "QuoteNotFound", "QuoteNotFound"])
  })
})

/** Every number a text shows, as its value: Danish figures read as such ("350.000" is 350000, "9,61" is 9.61). */
const numbersShown = (text: string): Array<number> =>
  [...text.matchAll(/\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?/g)].map((match) =>
    Number(match[0].replaceAll(".", "").replace(",", "."))
  )

/**
 * Every number a quote's JSON carries: its numbers, the numbers written in its strings ("9.61", "AB 12 345"), and
 * the last four digits of its CPR numbers, which are all the document shows of them ("xxxxxx-1234").
 */
const numbersCarried = (quote: any): Set<number> => {
  const carried = new Set<number>(
    quote.policies[0].parties.flatMap((party: any) =>
      party.person === undefined ? [] : [Number(party.person.cpr_number.slice(-4))]
    )
  )
  const visit = (value: unknown): void => {
    if (typeof value === "number") carried.add(value)
    else if (typeof value === "string")
      for (const match of value.matchAll(/\d+(?:\.\d+)?/g)) {
        carried.add(Number(match[0]))
        for (const digits of match[0].split(".")) carried.add(Number(digits))
      }
    else if (typeof value === "object" && value !== null) for (const inner of Object.values(value)) visit(inner)
  }
  visit(quote)
  return carried
}

const MONTHS = "januar|februar|marts|april|maj|juni|juli|august|september|oktober|november|december"

/** The insurer's CVR number and address: fixed text, which an Extended quote's JSON leaves out (no `insurer`). */
const INSURER_TEXTS = ["CVR 12345674", "Forsikringsvej 1, 2100 København Ø"]

/**
 * A document's text without what it may show besides the quote's own figures: the dates ("1. juli 2026", of
 * the quote's creation, expiry, activation and pricing), the times of day ("kl. 12.23"), the page numbers
 * ("Side 1 af 2") and the insurer's CVR number and address. Nothing else is exempt: the partner's CVR and
 * P-numbers are in the quote's `agent`, the parties' in its `parties`, the links in `ipid_href` and `policy_href`.
 */
const withoutExemptText = (text: string): string =>
  INSURER_TEXTS.reduce((rest, exempt) => rest.replaceAll(exempt, ""), text)
    .replace(new RegExp(`\\d{1,2}\\. (?:${MONTHS}) \\d{4}`, "g"), "")
    .replace(/kl\. \d{2}\.\d{2}/g, "")
    .replace(/Side \d+ af \d+/g, "")

/** A quote request for the business product, paid yearly, for a vehicle of 1 250 000 kr. */
const businessRequest = () =>
  Examples.quoteRequest(
    Examples.standardParameters({
      policy_holder: "organization",
      vehicle_user: "organization",
      vehicle_usage: "godstransport",
      vehicle_price: "1250000"
    }),
    "insurance-car-standalone",
    "premium"
  )

/** Links as long as an insurer's may be: the documents kept at a path several levels down its own site. */
const LONG_LINKS = DocumentLinks.servedBy(
  () => "https://forsikring.bilhuset-oest.example/partnere/bilforsikring-og-leasing/api/version-1"
)

describe.skipIf(skipPoppler)("a quote's document, as its customer reads it", () => {
  it("gives every time in Danish local time, summer time included", async () => {
    // 10.23 UTC on 1 July is 12.23 in Copenhagen (summer time, UTC+2)
    const summer = Date.parse("2026-07-01T10:23:00.000Z")
    const printed = await onEngine(printedQuote(monthlyRequest(), true), { now: summer })
    const lines = pdfLines(printed.pdf)
    expect(lines).toContain("Oprettet 1. juli 2026 kl. 12.23")
    expect(lines).toContain("Status Aktiveret 1. juli 2026 kl. 14.23")
    expect(lines).toContain("Gyldigt til 31. juli 2026 kl. 12.23")
    expect(pdfText(printed.pdf)).not.toContain("UTC")
  })

  it("writes every amount with thousands separators, the vehicle price included", async () => {
    for (const request of [monthlyRequest(), businessRequest()]) {
      const printed = await onEngine(printedQuote(request, false))
      const text = pdfText(printed.pdf)
      const amounts = [...text.matchAll(/([\d.,]+) kr\./g)].map((match) => match[1]!)
      expect(amounts.length).toBeGreaterThan(4)
      for (const amount of amounts) expect(amount).toMatch(/^\d{1,3}(?:\.\d{3})*(?:,\d{2})?$/)
      const vehiclePrice = Number(printed.quote.product.parameters.vehicle_price)
      expect(pdfLines(printed.pdf)).toContain(`Køretøjets pris ${danishKroner(vehiclePrice)}`)
    }
  })

  it("names no product, parameter or option as the API does, but in the catalogue's words", async () => {
    for (const request of [monthlyRequest(), businessRequest()]) {
      const printed = await onEngine(printedQuote(request, true), { links: LONG_LINKS })
      const links = [printed.quote.policies[0].ipid_href, printed.quote.privacy.policy_href]
      const text = links.reduce((rest: string, link: string) => rest.replaceAll(link, ""), pdfText(printed.pdf))
      const product = printed.quote.product
      expect(text).not.toContain(product.product_name)
      for (const name of Object.keys(product.parameters)) expect(text).not.toContain(name)
      // the API's option ids and coverage names are snake_case (privat_person_koersel, påkørsel_af_dyr)
      expect(text).not.toContain("_")
    }
  })

  it("shows no number the quote's JSON does not carry, but dates, times of day, page numbers and the insurer's CVR number and address", async () => {
    for (const [request, activate] of [
      [monthlyRequest(), false],
      [monthlyRequest(), true],
      [businessRequest(), true]
    ] as const) {
      const printed = await onEngine(printedQuote(request, activate), { links: LONG_LINKS })
      const carried = numbersCarried(printed.quote)
      const shown = numbersShown(withoutExemptText(pdfText(printed.pdf)))
      expect(shown.length).toBeGreaterThan(20)
      expect(shown.filter((number) => !carried.has(number))).toEqual([])
    }
  })

  it("prints every link whole on a line of its own, however long", async () => {
    const insurersOwn = DocumentLinks.keptByInsurer(
      {
        documentsBaseUrl:
          "https://dokumenter.kasko-forsikring.example/produkter/bilforsikring/partnerbilforsikring/ipid-arkiv/2026",
        privacyPolicyUrl:
          "https://www.kasko-forsikring.example/om-os/privatlivspolitik-for-kunder-og-samarbejdspartnere"
      },
      LONG_LINKS
    )
    for (const links of [LONG_LINKS, insurersOwn]) {
      const printed = await onEngine(printedQuote(monthlyRequest(), false), { links })
      const lines = pdfLines(printed.pdf)
      for (const link of [printed.quote.policies[0].ipid_href, printed.quote.privacy.policy_href]) {
        expect(link.length).toBeGreaterThan(90)
        expect(lines).toContain(link)
      }
    }
  })
})
