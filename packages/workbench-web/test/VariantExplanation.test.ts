/** The variant beside the case: the core's rule in words, and the case's answer as either variant. */
import { TariffDocuments, Variant } from "@kasko/core/actuarial"
import { describe, expect, it } from "vitest"
import { sampleCase, type CaseInput } from "../src/model/CaseInput.js"
import { priceCaseInput } from "../src/model/CasePrice.js"
import {
  explainVariant,
  onlyIn,
  variantRuleText,
  variantRuleWords,
  variantVerdictText
} from "../src/model/VariantExplanation.js"

const tariffs = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)
const standardCase: CaseInput = sampleCase("2026-03-02")
const withParameters = (parameters: Record<string, string>): CaseInput => ({
  ...standardCase,
  parameters: { ...standardCase.parameters, ...parameters }
})

describe("the variant rule in words", () => {
  it("names every parameter and value of the core's rule, with the catalogue's titles", () => {
    expect(variantRuleText()).toBe(
      "A case is Standard when policy_holder is person (Privatperson), vehicle_user is person (Privatperson) and vehicle_usage is privat_person_koersel (Privat personkørsel); any other value of any of them makes it Extended."
    )
    for (const [parameter, value] of Object.entries(Variant.firstVariantWhen("insurance-car-leasing")))
      expect(variantRuleText()).toContain(`${parameter} is ${value}`)
  })
})

describe("explaining a case's variant", () => {
  it("agrees with the engine's variant for every combination of the rule's parameters", () => {
    for (const policy_holder of ["person", "organization"])
      for (const vehicle_user of ["person", "organization"])
        for (const vehicle_usage of ["privat_person_koersel", "godstransport", "godstransport_erhverv"]) {
          const input = withParameters({ policy_holder, vehicle_user, vehicle_usage })
          const explanation = explainVariant(input, tariffs)
          expect(explanation.variant).toBe(
            Variant.variantOf(input.product_name, { policy_holder, vehicle_user, vehicle_usage })
          )
          expect(explanation.because.length === 0).toBe(explanation.variant === "standard")
        }
  })

  it("says which values make a case Extended", () => {
    const explanation = explainVariant(withParameters({ vehicle_usage: "godstransport" }), tariffs)
    expect(explanation.because).toEqual([{ parameter: "vehicle_usage", value: "godstransport" }])
    expect(variantVerdictText(explanation)).toBe(
      "This case is Extended: vehicle_usage is godstransport (Godstransport)."
    )
    expect(variantVerdictText(explainVariant(standardCase, tariffs))).toBe("This case is Standard.")
  })

  it("prices the case as each variant: the case's own answer is its worksheet, the other what the variant alone changes", () => {
    const { answers } = explainVariant(standardCase, tariffs)
    const own = priceCaseInput(standardCase, tariffs)
    expect(own._tag).toBe("Priced")
    expect(answers!.standard.annually).toBe(own._tag === "Priced" ? own.worksheet.annually : undefined)
    expect(answers!.standard.quoted_product_name).toBe("private-insurance-car-leasing")
    expect(answers!.extended.quoted_product_name).toBe("business-insurance-car-leasing")
    // the reference tariff: Standard lists vejhjælp and afleveringsforsikring, Extended friskade and statsafgift
    expect(onlyIn(answers!, "standard")).toEqual(["påkørsel_af_dyr", "afleveringsforsikring", "vejhjælp"])
    expect(onlyIn(answers!, "extended")).toEqual(["friskade", "statsafgift"])
    expect(answers!.extended.listed_charges).toEqual(["statsafgift"])
    expect(answers!.standard.listed_charges).toEqual([])
  })

  it("still explains the variant of a case that cannot be priced", () => {
    const explanation = explainVariant(withParameters({ vehicle_price: "12", policy_holder: "organization" }), tariffs)
    expect(explanation.variant).toBe("extended")
    expect(explanation.answers).toBeUndefined()
  })
})

describe("a variant rule that is not a list of equalities", () => {
  it("is put in words as the product's document writes it, each option with its title", () => {
    const rule = {
      all: [
        { fact: "vehicle_usage", operator: "in" as const, value: ["privat_person_koersel", "godstransport"] },
        { fact: "vehicle_price", operator: "lessThanInclusive" as const, value: 400000 }
      ]
    }
    const text = variantRuleWords("insurance-car-leasing", rule)
    expect(text).toBe(
      "A case is Standard when vehicle_usage is one of privat_person_koersel (Privat personkørsel) or godstransport (Godstransport) and vehicle_price is at most 400000; any other case is Extended."
    )
  })
})
