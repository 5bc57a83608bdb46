/**
 * The product information document (IPID) of each product × variant, read back with pdftotext: its nine
 * sections, and every coverage the engine gives the variant — found by pricing offers of every kind of case of
 * it under both features — with the limit and the deductible the engine answers, in the row of that coverage.
 * Made once per tariff version and variant: the same bytes and ETag until the tariff changes, another version after.
 */
import { it as effectIt } from "@effect/vitest"
import { type DocumentRenderer, QuotingService, TariffBook } from "@kasko/core"
import { TariffDocuments } from "@kasko/core/actuarial"
import { PdfDocuments } from "@kasko/documents"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { NOW } from "../support.js"
import { danishKroner, firstPagePicture, pdfLines, pdfText, skipPoppler } from "./Poppler.js"

type Coverage = { readonly name: string; readonly limit?: number; readonly deductible?: number }

const PRODUCTS = ["insurance-car-leasing", "insurance-car-standalone"] as const
const VARIANTS = ["standard", "extended"] as const

/** The coverages' titles as a customer reads them (kasko's catalogue words, written down here on their own). */
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

/** The IPID's nine sections, as Regulation (EU) 2017/1469's template words them in Danish. */
const HEADINGS = [
  "Hvilken type forsikring er der tale om?",
  "Hvad dækker forsikringen?",
  "Hvad dækker forsikringen ikke?",
  "Er der begrænsninger i dækningen?",
  "Hvor er jeg dækket?",
  "Hvilke forpligtelser har jeg?",
  "Hvornår og hvordan betaler jeg?",
  "Hvornår starter og slutter dækningen?",
  "Hvordan opsiger jeg aftalen?"
]

const USAGES = [
  "privat_person_koersel",
  "godstransport_halv_omsaetning",
  "godstransport",
  "godstransport_erhverv",
  "godstransport_privat/erhverv"
]
const PARTIES = ["person", "organization"]

/** Every kind of case of a variant: its role and usage parameters, both vehicle types, two prices, a young driver or none. */
const casesOf = (variant: (typeof VARIANTS)[number]) =>
  PARTIES.flatMap((policy_holder) =>
    PARTIES.flatMap((vehicle_user) =>
      USAGES.flatMap((vehicle_usage) => {
        const standard =
          policy_holder === "person" && vehicle_user === "person" && vehicle_usage === "privat_person_koersel"
        if (standard !== (variant === "standard")) return []
        return ["personbil", "varevogn"].flatMap((vehicle_type) =>
          ["200000", "900000"].flatMap((vehicle_price) =>
            [{}, { youngest_user_age: "19" }].map((young) => ({
              payments_per_year: "1",
              policy_holder,
              vehicle_user,
              vehicle_owner: "organization",
              vehicle_usage,
              vehicle_type,
              vehicle_price,
              ...young
            }))
          )
        )
      })
    )
  )

const runAtNow = <A, E>(effect: Effect.Effect<A, E, TariffBook.TariffBook | DocumentRenderer.DocumentRenderer>) =>
  Effect.runPromise(
    Effect.andThen(TestClock.setTime(NOW), effect).pipe(
      Effect.provide(Layer.mergeAll(TariffBook.shipped, PdfDocuments.layer(), TestClock.layer()))
    )
  )

/** What the engine answers for every case of the variant: each coverage, the features that give it, its figures. */
const engineCoverages = async (product: string, variant: (typeof VARIANTS)[number]) => {
  const found = new Map<string, { features: Set<string>; limits: Set<number>; deductibles: Set<number> }>()
  for (const feature of ["standard", "premium"])
    for (const parameters of casesOf(variant)) {
      const offer = await runAtNow(
        QuotingService.createOffer({ product: { product_name: product, parameters, features: [{ name: feature }] } })
      )
      for (const coverage of offer.policies[0]!.coverages as ReadonlyArray<Coverage>) {
        const seen = found.get(coverage.name) ?? { features: new Set(), limits: new Set(), deductibles: new Set() }
        seen.features.add(feature)
        if (coverage.limit !== undefined) seen.limits.add(coverage.limit)
        if (coverage.deductible !== undefined) seen.deductibles.add(coverage.deductible)
        found.set(coverage.name, seen)
      }
    }
  return found
}

const coverageRow = (title: string) => new RegExp(`^${title} (Standard og Premium|Premium|Standard)( |$)`)

describe.skipIf(skipPoppler)("the product information document (IPID)", () => {
  const tariffs = TariffDocuments.SHIPPED_TARIFF_DOCUMENTS as ReadonlyArray<{
    product_name: string
    version: string
    effective_from: string
    monthly_surcharge_percent: number
  }>

  for (const product of PRODUCTS)
    for (const variant of VARIANTS)
      it(`of ${product}, ${variant}, has the nine sections and every coverage with the engine's limit and deductible`, async () => {
        const ipid = await runAtNow(QuotingService.getProductInformation(product, variant))
        expect(ipid.document.mediaType).toBe("application/pdf")
        const text = pdfText(ipid.document.bytes)
        const lines = pdfLines(ipid.document.bytes)
        for (const heading of HEADINGS) expect(lines, heading).toContain(heading)
        expect(text).toContain(
          product === "insurance-car-leasing" ? "Partnerbilforsikring, leasing" : "Partnerbilforsikring, standalone"
        )
        expect(text).toContain(variant === "standard" ? "Standard, privat" : "Udvidet, erhverv")
        expect(text).toContain("Kasko Forsikring A/S")
        // when and how to pay: the payments a year the catalogue offers, and the tariff's monthly surcharge
        const tariff = tariffs.find((candidate) => candidate.product_name === product)!
        expect(lines).toContain("Betalinger pr. år: 1 eller 12.")
        expect(text).toContain(`lægges ${tariff.monthly_surcharge_percent} % til`)
        expect(text).toContain(`Tarif ${tariff.version}`)

        const expected = await engineCoverages(product, variant)
        expect(expected.size).toBeGreaterThanOrEqual(5)
        const rows = lines.filter((line) => Object.values(TITLES).some((title) => coverageRow(title).test(line)))
        expect(rows).toHaveLength(expected.size)
        for (const [name, seen] of expected) {
          // the shipped tariff gives each coverage of a variant one limit and one deductible at most: the row shows it
          expect(seen.limits.size, name).toBeLessThanOrEqual(1)
          expect(seen.deductibles.size, name).toBeLessThanOrEqual(1)
          const features = seen.features.size === 2 ? "Standard og Premium" : "Premium"
          const limit = seen.limits.size === 0 ? "–" : danishKroner([...seen.limits][0]!)
          const deductible = seen.deductibles.size === 0 ? "–" : danishKroner([...seen.deductibles][0]!)
          expect(rows, name).toContain(`${TITLES[name]} ${features} ${limit} ${deductible}`)
        }
        firstPagePicture(ipid.document.bytes, `ipid-${product}-${variant}`)
      })

  it("names the limits and deductibles the engine prices: the aflevering limit, the kasko deductibles, retshjælp's", async () => {
    const standard = pdfLines(
      (await runAtNow(QuotingService.getProductInformation("insurance-car-leasing", "standard"))).document.bytes
    )
    expect(standard).toContain("Afleveringsforsikring Standard og Premium 15.000 kr. –")
    expect(standard).toContain("Kasko Standard og Premium – 5.000 kr.")
    const extended = pdfLines(
      (await runAtNow(QuotingService.getProductInformation("insurance-car-standalone", "extended"))).document.bytes
    )
    expect(extended).toContain("Kasko Standard og Premium – 10.000 kr.")
    expect(extended).toContain("Retshjælp Premium 200.000 kr. 2.500 kr.")
    expect(extended).toContain("Førerulykke Premium 500.000 kr. –")
    expect(extended.some((line) => line.startsWith("Afleveringsforsikring "))).toBe(false)
  })

  effectIt.effect("is made once per tariff version: the same bytes and version until the tariff changes", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW)
      const first = yield* QuotingService.getProductInformation("insurance-car-leasing", "standard")
      const again = yield* QuotingService.getProductInformation("insurance-car-leasing", "standard")
      // the renderer kept it: not rendered again
      expect(again.document.bytes).toBe(first.document.bytes)
      expect(again.version).toBe(first.version)
      expect(first.version).toContain("v1")
      // a day later, the same tariff: the same document
      yield* TestClock.adjust("1 day")
      const tomorrow = yield* QuotingService.getProductInformation("insurance-car-leasing", "standard")
      expect(tomorrow.version).toBe(first.version)
      expect(Buffer.from(tomorrow.document.bytes).equals(Buffer.from(first.document.bytes))).toBe(true)
      const other = yield* QuotingService.getProductInformation("insurance-car-leasing", "extended")
      expect(other.version).not.toBe(first.version)
    }).pipe(Effect.provide(Layer.merge(TariffBook.shipped, PdfDocuments.layer())))
  )

  it("follows a new tariff version once it is in force: its figures, its version", async () => {
    const leasing = TariffDocuments.SHIPPED_TARIFF_DOCUMENTS.find(
      (document) => (document as { product_name: string }).product_name === "insurance-car-leasing"
    ) as { rules: Array<{ name: string; event: { params: Record<string, unknown> } }> }
    const v2 = structuredClone(leasing) as typeof leasing & { version: string; effective_from: string }
    v2.version = "v2"
    v2.effective_from = "2026-04-01"
    v2.rules.find((rule) => rule.name === "standard: afleveringsforsikring limit")!.event.params["amount"] = 20_000
    const book = TariffBook.layer([...TariffDocuments.SHIPPED_TARIFF_DOCUMENTS, v2])
    const ipidOn = (date: string) =>
      Effect.runPromise(
        Effect.andThen(
          TestClock.setTime(Date.parse(`${date}T09:00:00.000Z`)),
          QuotingService.getProductInformation("insurance-car-leasing", "standard")
        ).pipe(Effect.provide(Layer.mergeAll(book, PdfDocuments.layer(), TestClock.layer())))
      )
    const before = await ipidOn("2026-03-31")
    const after = await ipidOn("2026-04-01")
    expect(before.version).toContain("/v1/")
    expect(after.version).toContain("/v2/")
    expect(pdfLines(before.document.bytes)).toContain("Afleveringsforsikring Standard og Premium 15.000 kr. –")
    expect(pdfLines(after.document.bytes)).toContain("Afleveringsforsikring Standard og Premium 20.000 kr. –")
    expect(pdfText(after.document.bytes)).toContain("Tarif v2, gældende fra 1. april 2026")
  })

  it("answers ProductNotFound for an unknown product or variant", async () => {
    const failure = (product: string, variant: string) =>
      Effect.runPromise(
        Effect.flip(QuotingService.getProductInformation(product, variant)).pipe(
          Effect.provide(Layer.merge(TariffBook.shipped, PdfDocuments.layer()))
        )
      )
    expect(await failure("insurance-car-leasing", "premium")).toMatchObject({
      _tag: "ProductNotFound",
      variant: "premium"
    })
    // an unknown product's variant is not named: the product is what is not found
    for (const variant of ["standard", "premium"]) {
      const boat = await failure("insurance-boat", variant)
      expect(boat).toMatchObject({ _tag: "ProductNotFound", product_name: "insurance-boat" })
      expect(boat).not.toHaveProperty("variant")
    }
  })
})
