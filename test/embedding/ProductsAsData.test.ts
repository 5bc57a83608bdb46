/**
 * A product added as data, in-process (issue 44, items 3 and 6): the example van product of examples/products,
 * put into a catalogue beside the shipped ones and sold by an engine given that catalogue — its definition, offers,
 * quotes, retrieval and activation — while an engine of the shipped catalogue knows nothing of it.
 */
import {
  ConstraintViolation,
  Examples,
  IdGenerator,
  Kasko,
  ProductCatalogue,
  ProductNotFound,
  TariffBook
} from "@kasko/core"
import { Pricing, Tariff, TariffDocuments } from "@kasko/core/actuarial"
import { MemoryQuoteStore } from "@kasko/memory"
import { Layer } from "effect"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"

const FOLDER = join(import.meta.dirname, "..", "..", "examples", "products", "insurance-van-business")
const json = (...path: Array<string>): unknown => JSON.parse(readFileSync(join(FOLDER, ...path), "utf8"))

const VAN_DOCUMENT = json("product.json")
const VAN_TARIFF = json("tariffs", "v1.json")
const catalogue = ProductCatalogue.withProducts(ProductCatalogue.decodeCatalogue([VAN_DOCUMENT]).products)

const vanSelection = (parameters: Record<string, string>, feature = "basis") => ({
  product_name: "insurance-van-business",
  parameters: {
    payments_per_year: "12",
    policy_holder: "organization",
    vehicle_type: "varevogn",
    vehicle_user: "person",
    vehicle_owner: "organization",
    vehicle_usage: "erhverv_egne_varer",
    vehicle_price: "320000",
    annual_mileage_km: "25000",
    overnight_parking: "firmaareal",
    ...parameters
  },
  features: [{ name: feature }]
})

// the walk-through's quote of examples/products/README.md: a plumbing firm's van, as vanSelection({}) prices it
const VAN_QUOTE = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "..", "examples", "requests", "van-quote.json"), "utf8")
) as unknown

const engines: Array<Kasko.Kasko> = []
const engineOf = (tariffs?: Layer.Layer<TariffBook.TariffBook>) => {
  const engine = Kasko.make(Layer.merge(MemoryQuoteStore.layer, IdGenerator.layerFromRandomBytes(randomBytes)), tariffs)
  engines.push(engine)
  return engine
}
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.dispose()))
})

describe("a catalogue with a product added as data", () => {
  it("holds the shipped products, then the added one, and leaves the shipped catalogue as it was", () => {
    expect(catalogue.productNames).toEqual([
      "insurance-car-leasing",
      "insurance-car-standalone",
      "insurance-van-business"
    ])
    expect(catalogue.quotedProduct("business-insurance-van-craft")).toEqual({
      product_name: "insurance-van-business",
      variant: "standard"
    })
    expect(ProductCatalogue.shipped.document("insurance-van-business")).toBeUndefined()
  })

  it("replaces a shipped product by a document of its name, in its place", () => {
    const leasing = ProductCatalogue.shipped.document("insurance-car-leasing")!
    const replaced = ProductCatalogue.withProducts([{ ...leasing, title: "Leasingforsikring 2027" }])
    expect(replaced.productNames).toEqual(ProductCatalogue.shipped.productNames)
    expect(replaced.definition("insurance-car-leasing")?.title).toBe("Leasingforsikring 2027")
    expect(replaced.document("insurance-car-standalone")).toBe(
      ProductCatalogue.shipped.document("insurance-car-standalone")
    )
  })

  it("refuses two products answering with one quoted name", () => {
    const leasing = ProductCatalogue.shipped.document("insurance-car-leasing")!
    expect(() => ProductCatalogue.withProducts([{ ...leasing, product_name: "insurance-car-copy" }])).toThrow(
      /both answer as private-insurance-car-leasing/
    )
  })
})

describe("an engine given the catalogue", () => {
  const tariffs = TariffBook.ofCatalogue(catalogue, [VAN_TARIFF])

  it("reads the added product's definition, with its own parameters and features", async () => {
    const definition = await engineOf(tariffs).getProduct("insurance-van-business")
    expect(definition.parameters.map((parameter) => parameter.name)).toContain("annual_mileage_km")
    expect(definition.features.map((feature) => feature.name)).toEqual(["basis", "plus"])
  })

  it("prices the added product by its own variant rule: craft up to 40 000 km, transport above", async () => {
    const kasko = engineOf(tariffs)
    const craft = await kasko.createOffer({ product: vanSelection({ annual_mileage_km: "40000" }) })
    const transport = await kasko.createOffer({ product: vanSelection({ annual_mileage_km: "40001" }) })
    expect(craft.product.product_name).toBe("insurance-van-business")
    expect(craft.policies[0]!.ipid_href).toContain("/products/insurance-van-business/variants/standard/ipid")
    expect(transport.policies[0]!.ipid_href).toContain("/variants/extended/ipid")
    expect(craft.policies[0]!.coverages.map((coverage) => coverage.name)).toContain("fastmonteret_indretning")
    expect(transport.price.annually).toBeGreaterThan(craft.price.annually)
  })

  it("says what is wrong with a request for the added product in its own parameters' words", async () => {
    const rejection = engineOf(tariffs).createOffer({
      product: vanSelection({ annual_mileage_km: "900", overnight_parking: "carport" })
    })
    await expect(rejection).rejects.toBeInstanceOf(ConstraintViolation)
    const violation = (await rejection.catch((error: ConstraintViolation) => error)) as ConstraintViolation
    expect(violation.violations.map((each) => each.field).sort()).toEqual([
      "product.parameters.annual_mileage_km",
      "product.parameters.overnight_parking"
    ])
  })

  it("quotes it under its variant's quoted name, retrieves and activates the quote", async () => {
    const kasko = engineOf(tariffs)
    const offer = await kasko.createOffer({ product: vanSelection({}) })
    const quote = await kasko.createQuote("partner-a", VAN_QUOTE)
    expect(quote.product.product_name).toBe("business-insurance-van-craft")
    expect(quote.policies[0]!.insurable_object.vehicle.vehicle_type).toBe("03")
    expect(quote.policies[0]!.insurable_object.vehicle.vehicle_usage).toBe("42")
    expect(quote.price.amount).toBe(offer.price.monthly)
    expect(await kasko.getQuote("partner-a", quote.quote_id)).toEqual({ state: "await_activation", quote })
    await kasko.activateQuote("partner-a", quote.quote_id)
    expect((await kasko.getQuote("partner-a", quote.quote_id)).state).toBe("activated")
  })

  it("still sells the shipped products with the shipped tariffs", async () => {
    const kasko = engineOf(tariffs)
    const shippedEngine = engineOf()
    const request = Examples.offerRequest(
      Examples.standardParameters({ vehicle_price: "250000" }),
      "insurance-car-standalone"
    )
    expect(await kasko.createOffer(request)).toEqual(await shippedEngine.createOffer(request))
  })
})

describe("an engine of the shipped catalogue", () => {
  it("knows nothing of the added product", async () => {
    const kasko = engineOf()
    await expect(kasko.getProduct("insurance-van-business")).rejects.toBeInstanceOf(ProductNotFound)
    const rejection = await kasko.createOffer({ product: vanSelection({}) }).catch((error: unknown) => error)
    expect(rejection).toBeInstanceOf(ConstraintViolation)
    expect((rejection as ConstraintViolation).violations.map((each) => each.field)).toContain("product.product_name")
  })

  it("refuses the added product's tariff, which prices a product it lacks", () => {
    expect(() => TariffDocuments.decodeTariffs([VAN_TARIFF])).toThrow(/tariff document 0 is invalid/)
  })
})

describe("a tariff loaded with a catalogue of the insurer's own", () => {
  it("may give a coverage its product's document does not describe, which the answers name as the tariff does", async () => {
    const tariff = VAN_TARIFF as { rules: Array<{ event: { type: string; params: Record<string, unknown> } }> }
    const renamed = {
      ...tariff,
      rules: tariff.rules.map((rule) =>
        rule.event.type === "add_coverage" && rule.event.params["coverage"] === "vejhjælp"
          ? { ...rule, event: { ...rule.event, params: { ...rule.event.params, coverage: "pechhilfe" } } }
          : rule
      )
    }
    const offer = await engineOf(TariffBook.ofCatalogue(catalogue, [renamed])).createOffer({
      product: vanSelection({})
    })
    expect(offer.policies[0]!.coverages.map((coverage) => coverage.name)).toContain("pechhilfe")
  })

  it("prices the plain functions the same as the engine, given the catalogue", async () => {
    const decoded = TariffDocuments.decodeTariffs([VAN_TARIFF], catalogue)
    const request = { product: vanSelection({ annual_mileage_km: "61000" }, "plus") }
    const today = new Date().toISOString().slice(0, 10)
    const offer = Pricing.priceOffer(decoded, request, today, catalogue)
    if (offer._tag !== "Success") throw new Error(JSON.stringify(offer))
    const engine = await engineOf(TariffBook.ofCatalogue(catalogue, [VAN_TARIFF])).createOffer(request)
    expect(offer.success.price).toEqual(engine.price)
    expect(offer.success.policies[0]!.ipid_href).toContain("/variants/extended/")
  })

  it("prices a tariff decoded alone against the catalogue over its product's facts", () => {
    const tariff = Tariff.decodeTariff(VAN_TARIFF, catalogue)
    if (tariff._tag !== "Success") throw new Error(tariff.failure)
    const priced = Pricing.priceWith(tariff.success, {
      product_name: "insurance-van-business",
      parameters: {
        ...vanSelection({ tools_cover: "150000" }).parameters,
        vehicle_price: 200000,
        annual_mileage_km: 25000
      },
      feature: "basis",
      pricing_date: "2026-06-01"
    })
    expect(priced.facts["tools_cover"]).toBe("150000")
    expect(priced.recipe.coverages.map((coverage) => coverage.name)).toContain("værktøj_og_varer")
  })
})
