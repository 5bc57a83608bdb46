/**
 * The impact example: the committed book is the generator's for its seed, the committed summary is
 * what the impact test reports on it today, and its old totals are the by-hand reference tariff's.
 */
import { generatedPortfolioLines } from "@kasko/workbench"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { BOOK, impactOfExample, PORTFOLIO_FILE, SUMMARY_FILE } from "../src/impactExample.js"
import { priceByHand, type HandCase } from "../src/ReferenceTariffByHand.js"

const bookText = readFileSync(PORTFOLIO_FILE, "utf8")
const summary = JSON.parse(readFileSync(SUMMARY_FILE, "utf8"))

/** Whole years from a birth date to a date, counted by hand. */
const ageOn = (birthDate: string, onDate: string) => {
  const [by, bm, bd] = birthDate.split("-").map(Number) as [number, number, number]
  const [oy, om, od] = onDate.split("-").map(Number) as [number, number, number]
  return oy - by - (om < bm || (om === bm && od < bd) ? 1 : 0)
}

describe("the impact example (examples/actuary-workbench/impact)", () => {
  it("commits the book the generator makes for seed 20270101", () => {
    expect(bookText).toBe(`${[...generatedPortfolioLines(BOOK)].join("\n")}\n`)
  })

  it("commits the summary the impact test reports on it (regenerate with impact:generate, and review the diff)", async () => {
    expect(JSON.parse(JSON.stringify(await impactOfExample()))).toEqual(summary)
    expect(summary.target).toMatchObject({ on: "kasko", applies_to: "capped premium", within_one_krone: true })
  })

  it("totals the old premiums of the leasing book as the by-hand reference tariff prices them", () => {
    const [header, ...lines] = bookText.trimEnd().split("\n")
    const columns = header!.split(",")
    let hundredthsOfOre = 0n
    for (const line of lines) {
      const cell = Object.fromEntries(line.split(",").map((value, index) => [columns[index]!, value]))
      // NEW names the leasing product only: the standalone policies are not compared
      if (cell["product_name"] !== "insurance-car-leasing") continue
      const age = cell["youngest_user_age"]
        ? Number(cell["youngest_user_age"])
        : cell["youngest_user_birthdate"]
          ? ageOn(cell["youngest_user_birthdate"], summary.pricing_date)
          : undefined
      const price = priceByHand({
        product_name: cell["product_name"] as HandCase["product_name"],
        feature: cell["feature"] as HandCase["feature"],
        policy_holder: cell["policy_holder"] as HandCase["policy_holder"],
        vehicle_user: cell["vehicle_user"] as HandCase["vehicle_user"],
        vehicle_type: cell["vehicle_type"] as HandCase["vehicle_type"],
        vehicle_usage: cell["vehicle_usage"]!,
        vehicle_price: Number(cell["vehicle_price"]),
        driver_age: age
      })
      hundredthsOfOre += BigInt(Math.round(Number(cell["weight"]) * 100)) * BigInt(price.annual_total_ore)
    }
    expect(summary.report.totals.old_kroner).toBe(Number((hundredthsOfOre + 50n) / 100n) / 100)
    expect(summary.report.not_compared).toEqual([
      { product_name: "insurance-car-standalone", cases: BOOK.size - summary.report.totals.policies }
    ])
  })
})
