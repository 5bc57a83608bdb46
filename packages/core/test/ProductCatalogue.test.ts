import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { productDefinition, quotedProductName } from "../src/product/ProductCatalogue.js"
import * as QuotingService from "../src/QuotingService.js"

const ALL_NINE = [
  "payments_per_year",
  "policy_holder",
  "vehicle_type",
  "vehicle_user",
  "vehicle_owner",
  "vehicle_usage",
  "vehicle_price",
  "youngest_user_age",
  "youngest_user_birthdate"
]

describe("the product catalogue (spec §2.1–2.3)", () => {
  it.each(["insurance-car-leasing", "insurance-car-standalone"])("defines all nine parameters of %s", (name) => {
    const definition = productDefinition(name)!
    expect(definition.product_name).toBe(name)
    expect(definition.parameters.map((parameter) => parameter.name)).toEqual(ALL_NINE)
    const byName = Object.fromEntries(definition.parameters.map((parameter) => [parameter.name, parameter]))
    expect(byName["payments_per_year"]).toEqual({
      name: "payments_per_year",
      title: "Betalinger pr. år",
      type: "enum",
      required: true,
      default: "1",
      options: [
        { id: "1", title: 1 },
        { id: "12", title: 12 }
      ]
    })
    expect(byName["vehicle_usage"]!.options!.map((option) => option.id)).toEqual([
      "privat_person_koersel",
      "godstransport_halv_omsaetning",
      "godstransport",
      "godstransport_erhverv",
      "godstransport_privat/erhverv"
    ])
    expect(byName["vehicle_type"]!.options!.map((option) => option.id)).toEqual(["personbil", "varevogn"])
    for (const party of ["policy_holder", "vehicle_user", "vehicle_owner"]) {
      expect(byName[party]!.options!.map((option) => option.id)).toEqual(["person", "organization"])
    }
    expect(byName["vehicle_price"]).toMatchObject({ type: "number", required: true })
    expect(byName["youngest_user_age"]).toMatchObject({ type: "number", required: false })
    expect(byName["youngest_user_birthdate"]).toMatchObject({ type: "date", required: false })
    // only payments_per_year has a default; only enums have options
    expect(definition.parameters.filter((parameter) => "default" in parameter).map((p) => p.name)).toEqual([
      "payments_per_year"
    ])
    expect(definition.parameters.every((parameter) => (parameter.type === "enum") === "options" in parameter)).toBe(
      true
    )
    expect(definition.features.map((feature) => feature.name)).toEqual(["standard", "premium"])
  })

  it("lists all nine parameters in the leasing product's features", () => {
    for (const feature of productDefinition("insurance-car-leasing")!.features) {
      expect(feature.parameter_refs).toEqual(ALL_NINE)
    }
  })

  it("lists the seven parameters of spec §2.3 in the standalone product's features", () => {
    for (const feature of productDefinition("insurance-car-standalone")!.features) {
      expect(feature.parameter_refs).toEqual([
        "vehicle_user",
        "vehicle_usage",
        "policy_holder",
        "vehicle_type",
        "vehicle_owner",
        "payments_per_year",
        "vehicle_price"
      ])
    }
  })

  it("answers ProductNotFound for an unknown product", () => {
    const exit = Effect.runSyncExit(QuotingService.getProduct("insurance-bicycle"))
    expect(exit).toEqual(
      Exit.fail(expect.objectContaining({ _tag: "ProductNotFound", product_name: "insurance-bicycle" }))
    )
  })

  it("refuses a language kasko does not write, naming the field, where an untyped caller passes one", () => {
    const exit = Effect.runSyncExit(QuotingService.getProduct("insurance-car-leasing", "de" as "da"))
    expect(exit).toEqual(
      Exit.fail(
        expect.objectContaining({
          _tag: "ConstraintViolation",
          violations: [{ field: "language", message: "must be da or en" }]
        })
      )
    )
  })
})

describe("the product name a quote answers with (spec §2.4)", () => {
  it.each([
    ["insurance-car-leasing", "standard", "private-insurance-car-leasing"],
    ["insurance-car-leasing", "extended", "business-insurance-car-leasing"],
    ["insurance-car-standalone", "standard", "private-insurance-car-standalone"],
    ["insurance-car-standalone", "extended", "business-car-insurance-standalone"]
  ] as const)("answers %s in the %s variant as %s", (product, variant, quoted) => {
    expect(quotedProductName(product, variant)).toBe(quoted)
  })
})
