/**
 * Versions of a product (issue 44, item 1): a product document is versioned and effective-dated like a tariff. The
 * engine decodes, prices, names and prints a case by the version in force on its pricing date, and a quote keeps
 * the version it was made under.
 */
import { it } from "@effect/vitest"
import {
  ConstraintViolation,
  DocumentRenderer,
  Examples,
  IdGenerator,
  ProductCatalogue,
  QuotingService,
  TariffBook
} from "@kasko/core"
import { Pricing, TariffDocuments } from "@kasko/core/actuarial"
import { MemoryQuoteStore } from "@kasko/memory"
import { Effect, Layer, Result } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"
import { failureOf, NOW } from "../support.js"

const LEASING = ProductCatalogue.shipped.document("insurance-car-leasing")!

/** The leasing product's second version: from 2027, a new title and dearer cars insured. */
const LEASING_V2 = {
  ...LEASING,
  version: "v2",
  effective_from: "2027-01-01",
  title: "Partner bilforsikring, leasing 2027",
  parameters: LEASING.parameters.map((parameter) =>
    parameter.name === "vehicle_price" ? { ...parameter, maximum: 15_000_000 } : parameter
  )
}

const versioned = ProductCatalogue.withProducts([LEASING, LEASING_V2])
// the leasing product replaced, every version, by the catalogue's: its tariffs are given with it
const LEASING_TARIFFS = TariffDocuments.SHIPPED_TARIFF_DOCUMENTS.filter(
  (document) => (document as { product_name: string }).product_name === "insurance-car-leasing"
)
const IN_2027 = Date.parse("2027-02-01T09:00:00.000Z")

/** Prints a document as its JSON, for a test to read what it says. */
const printedAsJson = Layer.succeed(DocumentRenderer.DocumentRenderer, {
  render: (document) =>
    Effect.succeed({ mediaType: "application/json", bytes: new TextEncoder().encode(JSON.stringify(document)) })
})

const engine = Layer.mergeAll(
  MemoryQuoteStore.layer,
  IdGenerator.layerSequential,
  TariffBook.ofCatalogue(versioned, LEASING_TARIFFS),
  printedAsJson
)

const dearCar = Examples.offerRequest(Examples.standardParameters({ vehicle_price: "12000000" }))

describe("a catalogue holding two versions of a product", () => {
  it("orders a product's versions by when they take effect, and gives the newest by name", () => {
    const reversed = ProductCatalogue.withProducts([LEASING_V2, LEASING])
    expect(reversed.versionsOf("insurance-car-leasing").map((document) => document.version)).toEqual(["v1", "v2"])
    expect(reversed.document("insurance-car-leasing")?.version).toBe("v2")
    expect(reversed.productNames).toEqual(ProductCatalogue.shipped.productNames)
  })

  it("is, on a date, the versions in force then: itself once every newest version is", () => {
    expect(versioned.on("2026-12-31").document("insurance-car-leasing")?.version).toBe("v1")
    expect(versioned.on("2027-01-01")).toBe(versioned)
    expect(versioned.on("2030-06-01")).toBe(versioned)
    // the same versions, the same catalogue: what is made of it is made once
    expect(versioned.on("2026-03-02")).toBe(versioned.on("2025-06-01"))
    expect(versioned.on("2026-03-02").on("2027-03-01")).toBe(versioned)
  })

  it("leaves out, on a date, a product none of whose versions is in force yet", () => {
    const later = ProductCatalogue.withProducts([LEASING_V2])
    expect(later.on("2026-06-01").productNames).toEqual(["insurance-car-standalone"])
    expect(later.on("2027-01-01")).toBe(later)
    // every product's newest version in force: the catalogue is itself
    expect(ProductCatalogue.shipped.on("2026-03-02")).toBe(ProductCatalogue.shipped)
  })

  it("refuses two versions of one name, or two taking effect on one date", () => {
    expect(() => ProductCatalogue.withProducts([LEASING, { ...LEASING_V2, version: "v1" }])).toThrow(
      "the catalogue holds version v1 of insurance-car-leasing twice"
    )
    expect(() => ProductCatalogue.withProducts([LEASING, { ...LEASING_V2, effective_from: "2025-01-01" }])).toThrow(
      "versions v1 and v2 of insurance-car-leasing both take effect on 2025-01-01"
    )
  })
})

describe("the engine over two versions of a product", () => {
  it.effect("defines the product as the version in force today defines it", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW)
      expect((yield* QuotingService.getProduct("insurance-car-leasing")).title).toBe(LEASING.title)
      yield* TestClock.setTime(IN_2027)
      expect((yield* QuotingService.getProduct("insurance-car-leasing")).title).toBe(LEASING_V2.title)
    }).pipe(Effect.provide(engine))
  )

  it.effect(
    "decodes an offer by the version in force: a price only the second version insures is refused before it",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(NOW)
        const refused = yield* failureOf(QuotingService.createOffer(dearCar))
        expect(refused).toBeInstanceOf(ConstraintViolation)
        expect((refused as ConstraintViolation).violations.map((violation) => violation.field)).toEqual([
          "product.parameters.vehicle_price"
        ])
        yield* TestClock.setTime(IN_2027)
        const offer = yield* QuotingService.createOffer(dearCar)
        expect(offer.price.annually).toBeGreaterThan(0)
      }).pipe(Effect.provide(engine))
  )

  it.effect("keeps in each quote's worksheet the product version it was made under", () =>
    Effect.gen(function* () {
      const versionOf = (quoteId: string) =>
        Effect.map(QuotingService.explainQuote("partner-a", quoteId), (worksheet) => worksheet.product_version)
      yield* TestClock.setTime(NOW)
      const before = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
      expect(yield* versionOf(before.quote_id)).toBe("v1")
      yield* TestClock.setTime(IN_2027)
      const after = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
      expect(yield* versionOf(after.quote_id)).toBe("v2")
      expect(after.product.product_name).toBe(before.product.product_name)
    }).pipe(Effect.provide(engine))
  )

  it.effect("prints a quote's document in the words of the version it was made under", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-12-20T09:00:00.000Z"))
      const quote = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
      // ten days on, the second version is in force; the quote was made under the first
      yield* TestClock.setTime(Date.parse("2027-01-05T09:00:00.000Z"))
      const printed = new TextDecoder().decode(
        (yield* QuotingService.getQuoteDocument("partner-a", quote.quote_id)).bytes
      )
      expect(printed).toContain(LEASING.title)
      expect(printed).not.toContain(LEASING_V2.title)
    }).pipe(Effect.provide(engine))
  )

  it.effect(
    "does not sell a product before its first version takes effect: not found, and an offer's violation says when",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(NOW)
        const later = Layer.mergeAll(
          MemoryQuoteStore.layer,
          IdGenerator.layerSequential,
          TariffBook.ofCatalogue(ProductCatalogue.withProducts([LEASING_V2]), [
            { ...(LEASING_TARIFFS[0] as object), effective_from: "2027-01-01" }
          ])
        )
        const notYet = yield* failureOf(QuotingService.getProduct("insurance-car-leasing")).pipe(Effect.provide(later))
        expect(notYet).toMatchObject({ _tag: "ProductNotFound", products: ["insurance-car-standalone"] })
        const refused = yield* failureOf(QuotingService.createOffer(Examples.offerRequest())).pipe(
          Effect.provide(later)
        )
        expect((refused as ConstraintViolation).violations).toEqual([
          {
            field: "product.product_name",
            message: "is not sold before 2027-01-01, when its first version takes effect"
          }
        ])
        yield* TestClock.setTime(IN_2027)
        const launched = yield* QuotingService.getProduct("insurance-car-leasing").pipe(Effect.provide(later))
        expect(launched.title).toBe(LEASING_V2.title)
      })
  )

  it.effect(
    "prints a quote's document in the words of the version it recorded, though a version added since says otherwise",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2026-12-03T09:00:00.000Z"))
        const store = yield* Layer.build(MemoryQuoteStore.layer)
        const engineOf = (catalogue: ProductCatalogue.Catalogue) =>
          Layer.mergeAll(
            Layer.succeedContext(store),
            IdGenerator.layerSequential,
            TariffBook.ofCatalogue(catalogue, LEASING_TARIFFS),
            printedAsJson
          )
        const quote = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest()).pipe(
          Effect.provide(engineOf(ProductCatalogue.withProducts([LEASING])))
        )
        // deployed late: a version taking effect before the quote was made
        const backdated = ProductCatalogue.withProducts([LEASING, { ...LEASING_V2, effective_from: "2026-12-01" }])
        const printed = new TextDecoder().decode(
          (yield* QuotingService.getQuoteDocument("partner-a", quote.quote_id).pipe(
            Effect.provide(engineOf(backdated))
          )).bytes
        )
        expect(printed).toContain(LEASING.title)
        expect(printed).not.toContain(LEASING_V2.title)
      }).pipe(Effect.scoped)
  )

  it("refuses a tariff that would price a product before its first version takes effect", () => {
    expect(() => TariffDocuments.decodeTariffs(LEASING_TARIFFS, ProductCatalogue.withProducts([LEASING_V2]))).toThrow(
      "tariff document 0 (insurance-car-leasing v1) takes effect on 2025-01-01, before its product's first version (v2, 2027-01-01): it would price the product before it is sold"
    )
  })
})

describe("a tariff book over two versions of a product", () => {
  // the second version no longer gives the tariff the youngest driver's age, which tariff v1 prices by
  const withoutAgeFact = {
    ...LEASING_V2,
    parameters: LEASING_V2.parameters.map((parameter) =>
      parameter.name === "youngest_user_age" ? { ...parameter, fact: false } : parameter
    )
  }

  it("refuses a tariff in force with a version that lacks a fact it reads, naming the version", () => {
    const catalogue = ProductCatalogue.withProducts([LEASING, withoutAgeFact])
    expect(() => TariffDocuments.decodeTariffs(LEASING_TARIFFS, catalogue)).toThrow(
      /\(insurance-car-leasing v1\) cannot be compiled with the product's v2: .*youngest_user_age/
    )
  })

  it("plans a tariff only with the versions in force while it is", () => {
    const catalogue = ProductCatalogue.withProducts([LEASING, withoutAgeFact])
    // tariff v2 takes over when product v2 does: v1 is never in force with it
    const v1 = LEASING_TARIFFS[0] as Record<string, unknown>
    const v2 = {
      ...v1,
      version: "v2",
      effective_from: "2027-01-01",
      rules: (v1["rules"] as Array<{ conditions: unknown }>).filter(
        (rule) => !JSON.stringify(rule.conditions).includes("youngest_user_age")
      )
    }
    const tariffs = TariffDocuments.decodeTariffs([v1, v2], catalogue)
    expect(tariffs.map((tariff) => tariff.version)).toEqual(["v1", "v2"])
    expect(
      TariffDocuments.productVersionsPricedBy(tariffs[0]!, tariffs, catalogue).map((product) => product.version)
    ).toEqual(["v1"])
    expect(
      TariffDocuments.productVersionsPricedBy(tariffs[1]!, tariffs, catalogue).map((product) => product.version)
    ).toEqual(["v2"])
  })
})

describe("the actuary's tools over two versions of a product", () => {
  // product v2 prices the youngest driver no longer, and tariff v2, written for it, no longer reads the age
  const withoutAgeFact = {
    ...LEASING_V2,
    parameters: LEASING_V2.parameters.map((parameter) =>
      parameter.name === "youngest_user_age" ? { ...parameter, fact: false } : parameter
    )
  }
  const catalogue = ProductCatalogue.withProducts([LEASING, withoutAgeFact])
  const v1 = LEASING_TARIFFS[0] as Record<string, unknown>
  const v2 = {
    ...v1,
    version: "v2",
    effective_from: "2027-01-01",
    rules: (v1["rules"] as Array<{ conditions: unknown }>).filter(
      (rule) => !JSON.stringify(rule.conditions).includes("youngest_user_age")
    )
  }

  it("reads a tariff file over the version in force when it takes effect, not the newest", () => {
    expect(Result.isSuccess(TariffDocuments.decodeTariffFile(v1, catalogue))).toBe(true)
    expect(Result.isSuccess(TariffDocuments.decodeTariffFile(v2, catalogue))).toBe(true)
  })

  it("prices a tariff before it takes effect over the version it was written for", () => {
    // a proposal that reads a fact only the next version gives, tried on today's case
    const withCargo = {
      ...LEASING_V2,
      parameters: [
        ...LEASING_V2.parameters,
        {
          name: "cargo_type",
          title: "Last",
          type: "enum" as const,
          required: false,
          options: [{ id: "fragile", title: "Skrøbelig" }],
          fact: true
        }
      ]
    }
    const proposal = {
      ...v2,
      rules: [
        ...(v2.rules as Array<unknown>),
        {
          name: "fragile cargo",
          conditions: { all: [{ fact: "cargo_type", operator: "equal", value: "fragile" }] },
          event: { type: "apply_loading", params: { loading: "fragile cargo", coverages: ["kasko"], percent: 10 } }
        }
      ]
    }
    const tariff = Result.getOrThrow(
      TariffDocuments.decodeTariffFile(proposal, ProductCatalogue.withProducts([LEASING, withCargo]))
    )
    const request = Pricing.pricingRequestOf(Examples.offerRequest().product, "2026-06-01")
    expect(Pricing.priceWith(tariff, request).annually).toBeGreaterThan(0)
  })
})
