/**
 * A portfolio of a catalogue's products: its header may name any parameter of them (the shipped
 * products' alone unless a catalogue is given, with today's messages), and each row is decoded as
 * its own product's — a van row with the van's parameters, a row of a product the catalogue lacks
 * rejected with the reason, as any invalid row is.
 */
import { TariffDocuments } from "@kasko/core/actuarial"
import { describe, expect, it } from "vitest"
import type { CaseOutcome } from "../src/CaseOutcome.js"
import { impactPricer, type PortfolioRow } from "../src/ImpactPricing.js"
import { impactWorkerJob } from "../src/ImpactWorkerJob.js"
import { ImpactAccumulator } from "../src/ImpactAccumulator.js"
import { forEachPortfolioRow, headerFields, PortfolioFormatError, portfolioColumns } from "../src/PortfolioCsv.js"
import { PRICING_DATE, VAN_PRODUCTS, vanCatalogue, vanV1 } from "./support.js"

const SHIPPED_PARAMETERS =
  "payments_per_year, policy_holder, vehicle_type, vehicle_user, vehicle_owner, vehicle_usage, vehicle_price, youngest_user_age, youngest_user_birthdate"
const OPTIONAL = "policy_id, product_name, feature, weight, current_premium"

const formatError = (run: () => unknown): PortfolioFormatError => {
  try {
    run()
  } catch (error) {
    if (error instanceof PortfolioFormatError) return error
    throw error
  }
  throw new Error("no PortfolioFormatError")
}

describe("a portfolio's columns", () => {
  const vanHeader = headerFields(
    "policy_id,product_name,feature,policy_holder,vehicle_type,vehicle_user,vehicle_owner,vehicle_usage,vehicle_price,annual_mileage_km,overnight_parking,tools_cover"
  )

  it("are the shipped products' parameters when no catalogue is given, refused as today", () => {
    const refused = formatError(() => portfolioColumns(vanHeader))
    expect(refused.message).toBe(
      `line 1: column 10 "annual_mileage_km" is neither a product parameter (${SHIPPED_PARAMETERS}) nor one of ${OPTIONAL}`
    )
  })

  it("are every parameter of the catalogue's products, each at its place in the header", () => {
    const columns = portfolioColumns(vanHeader, vanCatalogue)
    expect(columns.parameters).toEqual([
      [3, "policy_holder"],
      [4, "vehicle_type"],
      [5, "vehicle_user"],
      [6, "vehicle_owner"],
      [7, "vehicle_usage"],
      [8, "vehicle_price"],
      [9, "annual_mileage_km"],
      [10, "overnight_parking"],
      [11, "tools_cover"]
    ])
    expect(formatError(() => portfolioColumns(["vehicle_mileage", ...vanHeader], vanCatalogue)).message).toBe(
      `line 1: column 1 "vehicle_mileage" is neither a product parameter (${SHIPPED_PARAMETERS}, annual_mileage_km, overnight_parking, tools_cover) nor one of ${OPTIONAL}`
    )
  })

  it("must name the parameters every product of the catalogue requires, not those only the van requires", () => {
    // a book of the seed products is a book of this catalogue too: the van's own columns may be absent
    const seedHeader = headerFields("policy_holder,vehicle_type,vehicle_user,vehicle_owner,vehicle_usage,vehicle_price")
    expect(portfolioColumns(seedHeader, vanCatalogue).parameters).toHaveLength(6)
    expect(formatError(() => portfolioColumns(seedHeader.slice(1), vanCatalogue)).message).toBe(
      "line 1: the header lacks the required parameter column(s) policy_holder"
    )
  })
})

const VAN_CASE = {
  policy_holder: "organization",
  vehicle_type: "varevogn",
  vehicle_user: "person",
  vehicle_owner: "organization",
  vehicle_usage: "erhverv_egne_varer",
  vehicle_price: "320000",
  annual_mileage_km: "25000",
  overnight_parking: "firmaareal"
}
const LEASING_CASE = {
  policy_holder: "person",
  vehicle_type: "personbil",
  vehicle_user: "person",
  vehicle_owner: "organization",
  vehicle_usage: "privat_person_koersel",
  vehicle_price: "250000"
}
const row = (product_name: string, parameters: Record<string, string>, feature = "", line = 2): PortfolioRow => ({
  line,
  policy_id: "",
  product_name,
  feature,
  parameters,
  weight: "",
  current_premium: ""
})

const [leasingV1, standaloneV1] = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)
const withVan = {
  old: [leasingV1!, standaloneV1!, vanV1],
  new: [leasingV1!, standaloneV1!, vanV1],
  pricing_date: PRICING_DATE,
  products: VAN_PRODUCTS
}
const reasonsOf = (outcome: CaseOutcome) => (outcome.kind === "rejected" ? outcome.reasons : [])

describe("a portfolio row, priced for an impact test", () => {
  const price = impactPricer(withVan)

  it("is decoded as its own product's: a van row by the van's parameters, its blank feature the van's first", () => {
    const van = price(row("insurance-van-business", VAN_CASE))
    expect(van.kind).toBe("priced")
    if (van.kind !== "priced") return
    expect(van.old.facts).toMatchObject({
      product_name: "insurance-van-business",
      feature: "basis",
      annual_mileage_km: 25_000,
      overnight_parking: "firmaareal",
      tools_cover: "ingen"
    })
    expect(price(row("insurance-car-leasing", LEASING_CASE)).kind).toBe("priced")
  })

  it("is rejected, naming the column, for a parameter its product requires or does not have", () => {
    const { annual_mileage_km: _, ...withoutMileage } = VAN_CASE
    expect(reasonsOf(price(row("insurance-van-business", withoutMileage)))).toEqual(["annual_mileage_km: is required"])
    expect(reasonsOf(price(row("insurance-car-leasing", { ...LEASING_CASE, annual_mileage_km: "9000" })))).toEqual([
      "annual_mileage_km: is not a known field"
    ])
  })

  it("is rejected with the reason for a product the catalogue lacks", () => {
    expect(reasonsOf(price(row("insurance-car-fleet", LEASING_CASE)))).toEqual([
      "product_name: must be one of: insurance-car-leasing, insurance-car-standalone, insurance-van-business"
    ])
    // the shipped catalogue lacks the van: its rows are rejections, the file is no less a portfolio
    const shipped = impactPricer({ old: [leasingV1!], new: [leasingV1!], pricing_date: PRICING_DATE })
    expect(reasonsOf(shipped(row("insurance-van-business", VAN_CASE, "basis")))).toContain(
      "product_name: must be one of: insurance-car-leasing, insurance-car-standalone"
    )
  })
})

describe("an impact worker started with added products", () => {
  it("prices the van rows of a chunk as this thread does, from copies of the tariffs a clone made", () => {
    const header = headerFields(Object.keys({ product_name: "", ...VAN_CASE }).join(","))
    const columns = portfolioColumns(header, vanCatalogue)
    const body = [
      ["insurance-van-business", ...Object.values(VAN_CASE)],
      [
        "insurance-van-business",
        ...Object.values({ ...VAN_CASE, annual_mileage_km: "65000", overnight_parking: "gade" })
      ]
    ]
      .map((fields) => `${fields.join(",")}\n`)
      .join("")
    // what a worker thread or a web worker is sent: a structured clone, which keeps no tie to a catalogue
    const job = impactWorkerJob(structuredClone({ ...withVan, columns }))
    job({ type: "pass", pass: { impact: {} } })
    expect(job({ type: "text", bytes: new TextEncoder().encode(body), first_line: 2 })).toEqual({ type: "done" })
    const answer = job({ type: "finish" })
    if (answer.type !== "state") throw new Error(JSON.stringify(answer))
    const inThisThread = new ImpactAccumulator()
    const price = impactPricer(withVan)
    forEachPortfolioRow(body, 2, columns, (entry) => inThisThread.add(price(entry)))
    const expected = inThisThread.finish()
    expect(expected.totals.policies).toBe(2)
    const merged = new ImpactAccumulator()
    merged.merge(answer.state)
    expect(merged.finish()).toEqual(expected)
  })
})
