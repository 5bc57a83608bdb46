/** The form's case of a product added as files: its own parameters, priced as the workbench's priceCase prices it. */
import { ProductCatalogue, TariffDocuments } from "@kasko/core/actuarial"
import { parseGoldenTable, priceCase } from "@kasko/workbench/browser"
import { describe, expect, it } from "vitest"
import {
  caseOfProduct,
  IN_FORCE,
  inForceOn,
  parameterDefinitionsOf,
  sampleCase,
  sentParameters,
  type CaseInput
} from "../src/model/CaseInput.js"
import { priceCaseInput } from "../src/model/CasePrice.js"
import { defaultAxisText } from "../src/model/GridAxis.js"
import { folderCatalogue } from "../src/model/ProductFolders.js"
import { explainVariant, variantRuleText } from "../src/model/VariantExplanation.js"
import { VAN_DOCUMENT, VAN_GOLDEN, VAN_V1, vanFolder, vanWith } from "./fixtures.js"

const { catalogue } = folderCatalogue([vanFolder()])
const tariffs = TariffDocuments.decodeTariffs([JSON.parse(VAN_V1)], catalogue)
const golden = parseGoldenTable(VAN_GOLDEN, catalogue)
const VAN = "insurance-van-business"

describe("a case of a product added as files", () => {
  it.each(golden.map((row) => [row.name, row] as const))(
    "prices golden case %s to priceCase's worksheet",
    async (_name, row) => {
      const input: CaseInput = {
        product_name: row.product_name,
        feature: row.feature,
        tariff: IN_FORCE,
        pricing_date: row.pricing_date,
        parameters: Object.fromEntries(
          parameterDefinitionsOf(VAN, catalogue).map((definition) => [
            definition.name,
            row.parameters[definition.name] ?? ""
          ])
        )
      }
      expect(priceCaseInput(input, tariffs, catalogue)).toEqual({
        _tag: "Priced",
        worksheet: await priceCase(row, tariffs, "compiled", catalogue)
      })
    }
  )

  it("has the product's own fields when the form turns to it: values it allows kept, its defaults, its first feature", () => {
    const leasing = sampleCase("2026-06-01")
    const van = caseOfProduct(leasing, VAN, catalogue)
    expect(van.product_name).toBe(VAN)
    expect(van.feature).toBe("basis")
    expect(Object.keys(van.parameters)).toEqual(parameterDefinitionsOf(VAN, catalogue).map(({ name }) => name))
    expect(van.parameters).toMatchObject({
      payments_per_year: "1",
      policy_holder: "person",
      // the leasing case's private car is no option of the van product: not sent until chosen
      vehicle_type: "",
      vehicle_usage: "",
      vehicle_price: "250000",
      annual_mileage_km: "",
      tools_cover: "ingen"
    })
    // and back: the van's own values are left behind
    expect(Object.keys(caseOfProduct(van, "insurance-car-leasing", catalogue).parameters)).not.toContain("tools_cover")
  })

  it("sends only the parameters its product has, so that a value of another product is no unknown field", () => {
    const input = {
      ...caseOfProduct(sampleCase("2026-06-01"), VAN, catalogue),
      parameters: { ...golden[0]!.parameters, stray: "x" }
    }
    expect(priceCaseInput({ ...input, feature: "basis" }, tariffs, catalogue)).toMatchObject({ _tag: "Priced" })
  })

  it("explains its variant with its own rule and options' titles", () => {
    expect(variantRuleText(VAN, catalogue)).toBe(
      "A case is Standard when vehicle_usage is one of erhverv_egne_varer (Erhverv, med eget værktøj og egne varer) or privat_og_erhverv (Erhverv og privat kørsel) and annual_mileage_km is at most 40000; any other case is Extended."
    )
    const far = golden.find((row) => Number(row.parameters["annual_mileage_km"]) > 40_000)!
    const input: CaseInput = { ...far, tariff: IN_FORCE, parameters: far.parameters }
    const explanation = explainVariant(input, tariffs, catalogue)
    expect(explanation.variant).toBe("extended")
    expect(explanation.answers?.extended.quoted_product_name).toBe("business-insurance-van-transport")
  })

  it("starts a grid axis over a number parameter of its own with round steps across its range", () => {
    const parameters = catalogue.document(VAN)!.parameters
    expect(defaultAxisText("annual_mileage_km", parameters)).toBe("10000:150000:10000")
    expect(defaultAxisText("overnight_parking", parameters)).toBe("garage,firmaareal,gade")
  })

  it("has the fields of the product's version in force on the pricing date, and sends only those", () => {
    // v2, from 2027, asks for the van's number of seats besides
    const v2 = vanWith((document) => {
      Object.assign(document, { version: "v2", effective_from: "2027-01-01" })
      const parameters = document["parameters"] as Array<Record<string, unknown>>
      parameters.push({ name: "seats", title: "Sæder", type: "number", required: false, minimum: 2, maximum: 9 })
    })
    const versions = ProductCatalogue.withProducts(
      ProductCatalogue.decodeCatalogue([JSON.parse(VAN_DOCUMENT), JSON.parse(v2)]).versions
    )
    const names = (date: string) => parameterDefinitionsOf(VAN, inForceOn(versions, date)).map(({ name }) => name)
    expect(names("2026-12-31")).not.toContain("seats")
    expect(names("2027-01-01")).toContain("seats")
    // a date being typed is no date: the newest version's fields meanwhile
    expect(names("2027-0")).toContain("seats")
    const input: CaseInput = { ...golden[0]!, tariff: IN_FORCE, parameters: { ...golden[0]!.parameters, seats: "3" } }
    expect(sentParameters({ ...input, pricing_date: "2026-12-31" }, versions)).not.toHaveProperty("seats")
    expect(sentParameters({ ...input, pricing_date: "2027-01-01" }, versions)).toHaveProperty("seats", "3")
  })
})
