/** The tariff diff on a changed copy of the tariff reports exactly the rows whose price changed. */
import { Tariff, TariffDocuments } from "@kasko/core/actuarial"
import { diffReport, diffTariffs, parseGoldenTable } from "@kasko/workbench"
import { Result } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const cases = parseGoldenTable(
  readFileSync(join(import.meta.dirname, "..", "golden", "reference-tariff-v1.csv"), "utf8")
)
const [leasingV1] = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)
const proposal = Result.getOrThrow(
  Tariff.decodeTariff(
    JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "tariffs", "insurance-car-leasing-v2-proposal.json"), "utf8")
    )
  )
)

const isStandard = (parameters: Readonly<Record<string, string>>) =>
  parameters["policy_holder"] === "person" &&
  parameters["vehicle_user"] === "person" &&
  parameters["vehicle_usage"] === "privat_person_koersel"

describe("kasko tariff diff", () => {
  it("reports exactly the leasing cases that have vejhjælp (Standard) or godstransport usage, which the proposal changes", async () => {
    const changes = await diffTariffs(leasingV1!, proposal, cases)
    const changedCases = new Set(changes.map((change) => change.case))
    const expected = new Set(
      cases
        .filter((testCase) => testCase.product_name === "insurance-car-leasing")
        .filter(
          (testCase) => isStandard(testCase.parameters) || testCase.parameters["vehicle_usage"] === "godstransport"
        )
        .map((testCase) => testCase.name)
    )
    expect(changedCases).toEqual(expected)
    for (const change of changes.filter((entry) => entry.item === "premium vejhjælp")) {
      expect(change).toMatchObject({ old_kroner: 400, new_kroner: 450, change_kroner: 50, change_percent: 12.5 })
    }
    // godstransport: ansvar 2 400 × 1.25 = 3 000 → × 1.28 = 3 072 (+2.40 %)
    expect(changes).toContainEqual({
      case: "leasing godstransport personbil",
      item: "premium ansvar",
      old_kroner: 3000,
      new_kroner: 3072,
      change_kroner: 72,
      change_percent: 2.4
    })
    expect(changes.every((change) => change.old_kroner !== change.new_kroner)).toBe(true)
    const leasingCases = cases.filter((testCase) => testCase.product_name === "insurance-car-leasing").length
    expect(diffReport(changes, leasingCases)).toContain(`${expected.size} of ${leasingCases} cases change`)
  })

  it("reports no change between a tariff and itself", async () => {
    expect(await diffTariffs(leasingV1!, leasingV1!, cases)).toEqual([])
  })

  it("refuses to compare tariffs of different products", async () => {
    const [, standalone] = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)
    await expect(diffTariffs(leasingV1!, standalone!, cases)).rejects.toThrow(/different products/)
  })
})
