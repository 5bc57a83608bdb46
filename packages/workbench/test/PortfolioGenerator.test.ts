/** The generated book: the same for a seed, valid for its products, and drawn as its help says. */
import { Offer, type ProductCatalogue } from "@kasko/core/actuarial"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { GENERATED_COLUMNS, generatedPortfolioLines } from "../src/PortfolioGenerator.js"

const book = (size: number, seed: number) => [...generatedPortfolioLines({ size, seed, as_of: "2027-01-01" })]
const lines = book(20_000, 5)
const cases = lines
  .slice(1)
  .map((line) => Object.fromEntries(line.split(",").map((cell, index) => [GENERATED_COLUMNS[index]!, cell])))
const share = (predicate: (entry: Record<string, string>) => boolean, among = cases) =>
  among.filter(predicate).length / among.length

describe("a generated portfolio", () => {
  it("is the same book for the same seed, another for another", () => {
    expect(book(500, 5)).toEqual(lines.slice(0, 501))
    expect(book(500, 6)).not.toEqual(lines.slice(0, 501))
    // seeds past 32 bits make books of their own too
    expect(book(50, 2 ** 40 + 5)).not.toEqual(book(50, 5))
  })

  it("holds only cases the service would price", () => {
    for (const entry of cases) {
      const parameters = Object.fromEntries(
        Object.entries(entry).filter(
          ([name, value]) => !["policy_id", "product_name", "feature", "weight"].includes(name) && value !== ""
        )
      )
      const decoded = Offer.decodeOfferRequest(
        {
          product: {
            product_name: entry["product_name"] as ProductCatalogue.ProductName,
            parameters,
            features: [{ name: entry["feature"] }]
          }
        },
        "2027-01-01"
      )
      expect(Result.isSuccess(decoded), JSON.stringify(entry)).toBe(true)
    }
  })

  it("draws as PORTFOLIO_DISTRIBUTIONS states, within sampling error", () => {
    expect(share((entry) => entry["product_name"] === "insurance-car-leasing")).toBeCloseTo(0.65, 1)
    expect(share((entry) => entry["feature"] === "standard")).toBeCloseTo(0.62, 1)
    expect(share((entry) => entry["payments_per_year"] === "12")).toBeCloseTo(0.7, 1)
    expect(share((entry) => entry["policy_holder"] === "person")).toBeCloseTo(0.7, 1)
    expect(share((entry) => entry["vehicle_owner"] === "organization")).toBe(1)
    const organizations = cases.filter((entry) => entry["policy_holder"] === "organization")
    expect(share((entry) => entry["vehicle_type"] === "varevogn", organizations)).toBeCloseTo(0.4, 1)
    expect(share((entry) => entry["vehicle_user"] === "person", organizations)).toBeCloseTo(0.55, 1)
    const vans = cases.filter((entry) => entry["vehicle_type"] === "varevogn")
    expect(share((entry) => entry["vehicle_usage"] === "godstransport", vans)).toBeCloseTo(0.35, 1)
    expect(
      vans.every((entry) => Number(entry["vehicle_price"]) >= 120_000 && Number(entry["vehicle_price"]) <= 700_000)
    ).toBe(true)
    expect(share((entry) => entry["weight"] === "1")).toBeCloseTo(0.85, 1)
    const people = cases.filter((entry) => entry["vehicle_user"] === "person")
    expect(share((entry) => entry["youngest_user_birthdate"] !== "", people)).toBeCloseTo(0.2, 1)
    const ages = cases
      .filter((entry) => entry["youngest_user_age"] !== "")
      .map((entry) => Number(entry["youngest_user_age"]))
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(18)
    expect(Math.max(...ages)).toBeLessThanOrEqual(85)
    expect(ages.filter((age) => age >= 35 && age <= 49).length / ages.length).toBeCloseTo(0.33, 1)
  })
})
