/**
 * A generated book of a product added as data: the same for a seed, its columns the product's
 * parameters, every case one the service would price, drawn as ADDED_PRODUCT_DISTRIBUTIONS states.
 */
import { Offer, ProductCatalogue, type ProductDocument } from "@kasko/core/actuarial"
import { csvParse } from "d3-dsv"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { ageBandsWithin, doublingBands } from "../src/ProductDraws.js"
import { generatedPortfolioLines } from "../src/PortfolioGenerator.js"
import { PRICING_DATE, vanCatalogue } from "./support.js"

const van = vanCatalogue.document("insurance-van-business")!
const leasing = vanCatalogue.document("insurance-car-leasing")!

const book = (size: number, seed: number, products: ReadonlyArray<ProductDocument.ProductDocument> = [van]) => [
  ...generatedPortfolioLines({ size, seed, as_of: PRICING_DATE, products })
]
const recordsOf = (lines: ReadonlyArray<string>) => csvParse(lines.join("\n"))
const NOT_PARAMETERS = ["policy_id", "product_name", "feature", "weight"]

/** The offer request's violations of a generated case, decoded as the service decodes it, on --as-of. */
const violationsOf = (record: Record<string, string | undefined>, catalogue: ProductCatalogue.Catalogue) => {
  const parameters = Object.fromEntries(
    Object.entries(record).filter(([name, value]) => !NOT_PARAMETERS.includes(name) && value !== "")
  )
  const decoded = Offer.decodeOfferRequest(
    { product: { product_name: record["product_name"], parameters, features: [{ name: record["feature"] }] } },
    PRICING_DATE,
    catalogue
  )
  return Result.isFailure(decoded) ? decoded.failure.violations : []
}

const lines = book(20_000, 3)
const cases = recordsOf(lines)
const share = (
  predicate: (entry: Record<string, string | undefined>) => boolean,
  among: ReadonlyArray<Record<string, string | undefined>> = cases
) => among.filter(predicate).length / among.length

describe("a generated book of the van product (added as data)", () => {
  it("is the same book for the same seed, another for another", () => {
    expect(book(500, 3)).toEqual(lines.slice(0, 501))
    expect(book(500, 4)).not.toEqual(lines.slice(0, 501))
  })

  it("has the product's parameters for columns, in its document's order", () => {
    expect(lines[0]).toBe(
      ["policy_id", "product_name", "feature", ...van.parameters.map((parameter) => parameter.name), "weight"].join(",")
    )
    expect(lines[1]).toMatch(/^P0000001,insurance-van-business,(basis|plus),/)
  })

  it("holds only cases the service would price: each decodes as an offer of the van with no violation", () => {
    expect(cases).toHaveLength(20_000)
    for (const entry of cases) expect(violationsOf(entry, vanCatalogue), JSON.stringify(entry)).toEqual([])
  })

  it("draws features and options each as likely, the van's own parameters among them", () => {
    expect(share((entry) => entry["feature"] === "plus")).toBeCloseTo(0.5, 1)
    expect(share((entry) => entry["policy_holder"] === "person")).toBeCloseTo(0.5, 1)
    expect(share((entry) => entry["vehicle_type"] === "varevogn")).toBe(1)
    for (const option of ["erhverv_egne_varer", "privat_og_erhverv", "godstransport_for_andre"])
      expect(share((entry) => entry["vehicle_usage"] === option)).toBeCloseTo(1 / 3, 1)
    for (const option of ["garage", "firmaareal", "gade"])
      expect(share((entry) => entry["overnight_parking"] === option)).toBeCloseTo(1 / 3, 1)
    for (const option of ["ingen", "50000", "150000"])
      expect(share((entry) => entry["tools_cover"] === option)).toBeCloseTo(1 / 3, 1)
    expect(share((entry) => entry["weight"] === "1")).toBeCloseTo(0.85, 1)
  })

  it("draws a number within its minimum and maximum, the parts between doublings of the minimum weighted to the middle", () => {
    const mileages = cases.map((entry) => Number(entry["annual_mileage_km"]))
    expect(mileages.every((km) => Number.isInteger(km) && km >= 1_000 && km <= 150_000)).toBe(true)
    const parts = doublingBands(1_000, 150_000)
    expect(parts).toEqual([
      [1_000, 1_999],
      [2_000, 3_999],
      [4_000, 7_999],
      [8_000, 15_999],
      [16_000, 31_999],
      [32_000, 63_999],
      [64_000, 127_999],
      [128_000, 150_000]
    ])
    const shares = parts.map(([from, to]) => mileages.filter((km) => km >= from && km <= to).length / mileages.length)
    // 1, 2, 3, 4, 4, 3, 2, 1 twentieths: within sampling error (a share's standard error ≤ 0.003 here)
    const expected = [1, 2, 3, 4, 4, 3, 2, 1].map((twentieths) => twentieths / 20)
    for (const [index, part] of shares.entries()) expect(Math.abs(part - expected[index]!)).toBeLessThan(0.012)
    const prices = cases.map((entry) => Number(entry["vehicle_price"]))
    expect(Math.min(...prices)).toBeGreaterThanOrEqual(10_000)
    expect(Math.max(...prices)).toBeLessThanOrEqual(2_000_000)
  })

  it("gives the youngest driver's age 65 %, the birth date 20 %, neither 15 %, the age by the driver's age bands", () => {
    expect(share((entry) => entry["youngest_user_age"] !== "")).toBeCloseTo(0.65, 1)
    expect(share((entry) => entry["youngest_user_birthdate"] !== "")).toBeCloseTo(0.2, 1)
    expect(share((entry) => entry["youngest_user_age"] === "" && entry["youngest_user_birthdate"] === "")).toBeCloseTo(
      0.15,
      1
    )
    const ages = cases
      .filter((entry) => entry["youngest_user_age"] !== "")
      .map((entry) => Number(entry["youngest_user_age"]))
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(18)
    expect(Math.max(...ages)).toBeLessThanOrEqual(85)
    expect(ages.filter((age) => age >= 35 && age <= 49).length / ages.length).toBeCloseTo(0.33, 1)
    // an age range narrower than the bands keeps the bands within it, by their weights
    expect(ageBandsWithin(25, 40)).toEqual([
      [[25, 27], 7],
      [[28, 34], 15],
      [[35, 40], 33]
    ])
  })
})

describe("a generated book of products named", () => {
  it("draws each product as likely, a shipped product as the seed products are drawn", () => {
    const mixed = recordsOf(book(4_000, 8, [van, leasing]))
    expect(share((entry) => entry["product_name"] === "insurance-van-business", mixed)).toBeCloseTo(0.5, 1)
    const leasingCases = mixed.filter((entry) => entry["product_name"] === "insurance-car-leasing")
    // the seed distributions: the partner owns the vehicle, features standard and premium
    expect(leasingCases.every((entry) => entry["vehicle_owner"] === "organization")).toBe(true)
    expect(leasingCases.every((entry) => entry["annual_mileage_km"] === "")).toBe(true)
    expect(share((entry) => entry["feature"] === "standard", leasingCases)).toBeCloseTo(0.62, 1)
    for (const entry of mixed) expect(violationsOf(entry, vanCatalogue), JSON.stringify(entry)).toEqual([])
  })

  it("draws a role quoted only as one kind as that kind, another optional parameter 75 %, another date before --as-of", () => {
    const document = JSON.parse(JSON.stringify(van)) as {
      product_name: string
      parameters: Array<Record<string, unknown>>
      party_roles: Array<Record<string, unknown>>
      variants: Array<{ quoted_product_name: string }>
    }
    document.product_name = "insurance-van-trailer"
    document.party_roles[2] = {
      role: "vehicle_owner",
      parameter: "vehicle_owner",
      quoted_only_as: { kind: "organization", because: "the dealer owns the van" }
    }
    document.parameters.push(
      {
        name: "trailer",
        title: "Trailer",
        type: "enum",
        required: false,
        options: [
          { id: "none", title: "Ingen" },
          { id: "closed, braked", title: "Lukket, med bremser" }
        ]
      },
      { name: "first_registration", title: "Første registrering", type: "date", required: true }
    )
    // two products of a catalogue may not answer with the same quoted name
    for (const variant of document.variants) variant.quoted_product_name = `${variant.quoted_product_name}-trailer`
    const catalogue = ProductCatalogue.withProducts(ProductCatalogue.decodeCatalogue([document]).products, vanCatalogue)
    const trailers = recordsOf(book(4_000, 5, [catalogue.document("insurance-van-trailer")!]))
    expect(trailers.every((entry) => entry["vehicle_owner"] === "organization")).toBe(true)
    expect(share((entry) => entry["trailer"] !== "", trailers)).toBeCloseTo(0.75, 1)
    // an option holding a comma is quoted, and read back whole
    expect(share((entry) => entry["trailer"] === "closed, braked", trailers)).toBeCloseTo(0.375, 1)
    const registrations = trailers.map((entry) => entry["first_registration"]!)
    expect(registrations.every((date) => date >= "2017-01-01" && date <= "2026-12-31")).toBe(true)
    for (const entry of trailers) expect(violationsOf(entry, catalogue), JSON.stringify(entry)).toEqual([])
  })
})
