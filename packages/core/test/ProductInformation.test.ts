/**
 * The IPID as the core writes it: kept per tariff version and variant (alternating variants makes neither again),
 * made again only when the charges in force change.
 */
import { describe, expect, it } from "vitest"
import { coveragesOfVariant, productInformationDocument } from "../src/documents/ProductInformation.js"
import type { PrintedDocument } from "../src/documents/PrintedDocument.js"
import type { TariffDocument } from "../src/pricing/Tariff.js"
import { decodeTariffs } from "../src/pricing/TariffDocuments.js"
import leasingV1 from "../tariffs/insurance-car-leasing/v1.json" with { type: "json" }

const leasing = leasingV1 as unknown as TariffDocument
const tariffOf = (document: TariffDocument) => decodeTariffs([document])[0]!

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

  it("shows the shipped tariff's figures, whose rules compare no price or age", () => {
    const coverages = new Map(
      coveragesOfVariant(tariffOf(leasing), "standard", "2026-03-02").map((found) => [found.name, found])
    )
    expect(coverages.get("kasko")).toMatchObject({ deductibles: [5_000], sometimesWithoutDeductible: false })
    expect(coverages.get("afleveringsforsikring")).toMatchObject({ limits: [15_000], sometimesWithoutLimit: false })
  })
})
