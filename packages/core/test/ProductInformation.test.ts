/**
 * The IPID as the core writes it: kept per tariff version and variant (alternating variants makes neither again),
 * made again only when the charges in force change; and what it says is insured found from the tariff's own
 * thresholds, so a tariff with a band of its own shows the limits and deductibles of that band.
 */
import { describe, expect, it } from "vitest"
import { coveragesOfVariant, productInformationDocument } from "../src/documents/ProductInformation.js"
import type { PrintedDocument } from "../src/documents/PrintedDocument.js"
import type { TariffDocument } from "../src/pricing/Tariff.js"
import { decodeTariffs, SHIPPED_TARIFF_DOCUMENTS } from "../src/pricing/TariffDocuments.js"
import leasingV1 from "../tariffs/insurance-car-leasing/v1.json" with { type: "json" }

const leasing = leasingV1 as unknown as TariffDocument
const tariffOf = (document: TariffDocument) => decodeTariffs([document])[0]!

type Rule = TariffDocument["rules"][number]

const variantIs = (variant: string) => ({ fact: "variant", operator: "equal", value: variant }) as const

/** The coverages' rows of the IPID's "what is insured" table: title, features, limit, deductible. */
const insuredRows = (document: PrintedDocument): ReadonlyArray<ReadonlyArray<string>> => {
  const table = document.sections[1]!.blocks.find((block) => block.kind === "table")
  if (table?.kind !== "table") throw new Error("the IPID has no table of what is insured")
  return table.rows
}

describe("the IPID of a product variant", () => {
  it("is kept per variant: asking for the variants in turn answers each one's document as first made", () => {
    const tariff = tariffOf(leasing)
    const standard = productInformationDocument(tariff, "standard", "2026-03-02")
    const extended = productInformationDocument(tariff, "extended", "2026-03-02")
    expect(extended).not.toBe(standard)
    for (let round = 0; round < 3; round++) {
      expect(productInformationDocument(tariff, "standard", "2026-03-02")).toBe(standard)
      expect(productInformationDocument(tariff, "extended", "2026-03-02")).toBe(extended)
    }
  })

  it("is the same document on later days while the same charges are in force, and made again when they change", () => {
    // statsafgift, listed among the Extended variant's coverages, in force only from 1 June 2026
    const tariff = tariffOf({
      ...leasing,
      charges: leasing.charges.map((charge) =>
        charge.charge === "statsafgift" ? { ...charge, effective_from: "2026-06-01" } : charge
      )
    })
    const march = productInformationDocument(tariff, "extended", "2026-03-02")
    const standardInMarch = productInformationDocument(tariff, "standard", "2026-03-02")
    expect(productInformationDocument(tariff, "extended", "2026-03-03")).toBe(march)
    expect(productInformationDocument(tariff, "extended", "2026-05-31")).toBe(march)
    expect(productInformationDocument(tariff, "standard", "2026-05-31")).toBe(standardInMarch)
    expect(insuredRows(march).map((row) => row[0])).not.toContain("Statsafgift")

    const june = productInformationDocument(tariff, "extended", "2026-06-01")
    expect(june).not.toBe(march)
    expect(insuredRows(june).map((row) => row[0])).toContain("Statsafgift")
    expect(june.cacheKey).not.toBe(march.cacheKey)
    expect(productInformationDocument(tariff, "extended", "2026-06-02")).toBe(june)
  })

  it("shows the limits and deductibles of a band the tariff adds, wherever its thresholds lie", () => {
    const bands: ReadonlyArray<Rule> = [
      {
        name: "standard: kasko deductible, cars of 1.5 to 2 million",
        conditions: {
          all: [
            variantIs("standard"),
            { fact: "vehicle_price", operator: "greaterThan", value: 1_500_000 },
            { fact: "vehicle_price", operator: "lessThanInclusive", value: 2_000_000 }
          ]
        },
        event: { type: "set_deductible", params: { coverage: "kasko", amount: 7_500 } }
      },
      {
        name: "standard: vejhjælp deductible, drivers in their sixties",
        conditions: {
          all: [
            variantIs("standard"),
            { fact: "youngest_user_age", operator: "greaterThanInclusive", value: 60 },
            { fact: "youngest_user_age", operator: "lessThan", value: 70 }
          ]
        },
        event: { type: "set_deductible", params: { coverage: "vejhjælp", amount: 500 } }
      },
      {
        name: "standard: lånebil limit, a car of exactly 333 333",
        conditions: { all: [variantIs("standard"), { fact: "vehicle_price", operator: "in", value: [333_333] }] },
        event: { type: "set_limit", params: { coverage: "lånebil", amount: 9_000 } }
      }
    ]
    const tariff = tariffOf({ ...leasing, version: "v1-bands", rules: [...leasing.rules, ...bands] })
    const coverages = new Map(coveragesOfVariant(tariff, "standard", "2026-03-02").map((found) => [found.name, found]))
    expect(coverages.get("kasko")).toMatchObject({ deductibles: [5_000, 7_500], sometimesWithoutDeductible: false })
    expect(coverages.get("vejhjælp")).toMatchObject({ deductibles: [500], sometimesWithoutDeductible: true })
    expect(coverages.get("lånebil")).toMatchObject({ limits: [9_000], sometimesWithoutLimit: true })

    const rows = insuredRows(productInformationDocument(tariff, "standard", "2026-03-02"))
    expect(rows).toContainEqual(["Kasko", "Standard og Premium", "–", "5.000 kr. eller 7.500 kr."])
    expect(rows).toContainEqual(["Vejhjælp", "Standard og Premium", "–", "ingen eller 500 kr."])
    expect(rows).toContainEqual(["Lånebil", "Premium", "ingen eller 9.000 kr.", "–"])
  })

  it("shows the shipped tariff's figures, whose rules compare no price or age", () => {
    const coverages = new Map(
      coveragesOfVariant(tariffOf(leasing), "standard", "2026-03-02").map((found) => [found.name, found])
    )
    expect(coverages.get("kasko")).toMatchObject({ deductibles: [5_000], sometimesWithoutDeductible: false })
    expect(coverages.get("afleveringsforsikring")).toMatchObject({ limits: [15_000], sometimesWithoutLimit: false })
  })
})

describe("the shipped products' IPIDs", () => {
  // recorded when the products became documents (issue 44) and equal to what the code wrote before: a change to
  // a product's document or to how cases are read from it shows here
  it.each(["insurance-car-leasing", "insurance-car-standalone"])("say for %s what they said", async (product) => {
    const tariff = decodeTariffs(SHIPPED_TARIFF_DOCUMENTS).find((candidate) => candidate.product_name === product)!
    const said = (["standard", "extended"] as const).map((variant) => ({
      variant,
      coverages: coveragesOfVariant(tariff, variant, "2026-03-02"),
      document: productInformationDocument(tariff, variant, "2026-03-02")
    }))
    await expect(`${JSON.stringify(said, null, 1)}\n`).toMatchFileSnapshot(`./ipid/${product}.json`)
  })
})
