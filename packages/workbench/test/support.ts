/** What the impact suites share: the tariffs compared, a generated book, and the book priced independently. */
import { Offer, Pricing, type ProductCatalogue, Tariff, TariffDocuments } from "@kasko/core/actuarial"
import { Result } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { catalogueOfProducts } from "../src/ComparisonCatalogue.js"
import { generatedPortfolioLines } from "../src/PortfolioGenerator.js"

export const PRICING_DATE = "2027-01-01"

const EXAMPLES = join(import.meta.dirname, "..", "..", "..", "examples")
const readJson = (...path: Array<string>): unknown => JSON.parse(readFileSync(join(EXAMPLES, ...path), "utf8"))

/** The example product added as data (examples/products): its document, as `--products` reads it. */
export const VAN_PRODUCTS: ReadonlyArray<unknown> = [readJson("products", "insurance-van-business", "product.json")]
/** The shipped products and the van product beside them. */
export const vanCatalogue: ProductCatalogue.Catalogue = catalogueOfProducts(VAN_PRODUCTS)
/** The van product's tariff in force, v1, decoded against the catalogue that has the product. */
export const vanV1: Tariff.Tariff = Result.getOrThrow(
  Tariff.decodeTariff(readJson("products", "insurance-van-business", "tariffs", "v1.json"), vanCatalogue)
)
/** The van product's proposed v2 (from 2027-01-01): mileage over 100 000 km loaded apart, street parking dearer. */
export const vanV2: Tariff.Tariff = Result.getOrThrow(
  Tariff.decodeTariff(readJson("products", "insurance-van-business-v2.proposal.json"), vanCatalogue)
)

export const [leasingV1, standaloneV1] = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS) as [
  Tariff.Tariff,
  Tariff.Tariff
]

/** The example's leasing change: kasko rates rebalanced, young drivers' loadings moved, vejhjælp 450 kr. */
export const rebalance: Tariff.Tariff = Result.getOrThrow(
  Tariff.decodeTariff(
    JSON.parse(
      readFileSync(
        join(
          import.meta.dirname,
          "..",
          "..",
          "..",
          "examples",
          "actuary-workbench",
          "impact",
          "insurance-car-leasing-v2-rebalance.json"
        ),
        "utf8"
      )
    )
  )
)

/** A generated book as CSV text: its header line and the lines after it. */
export const generatedBook = (size: number, seed: number) => {
  const [header, ...lines] = [...generatedPortfolioLines({ size, seed, as_of: PRICING_DATE })]
  return { header: header!, body: `${lines.join("\n")}\n`, lines }
}

/** A case of a generated line priced by the plain pricing function, nothing of the impact code in between. */
export interface IndependentCase {
  readonly line: number
  readonly product_name: string
  readonly variant: string
  readonly weight: number
  readonly old_ore: number
  readonly new_ore: number
}

/** Each generated line (the header's columns, split on commas) priced with `Pricing.priceOfferRequest` under each side. */
export const priceIndependently = (
  header: string,
  lines: ReadonlyArray<string>,
  oldTariffs: ReadonlyArray<Tariff.Tariff>,
  newTariffs: ReadonlyArray<Tariff.Tariff>,
  priceNew: (tariffs: ReadonlyArray<Tariff.Tariff>, request: Pricing.PricingRequest) => number = (tariffs, request) =>
    Result.getOrThrow(Pricing.price(tariffs, request)).annual_total_ore
): Array<IndependentCase> => {
  const columns = header.split(",")
  return lines.map((text, index) => {
    const cells = Object.fromEntries(text.split(",").map((cell, column) => [columns[column]!, cell]))
    const parameters = Object.fromEntries(
      [
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
        .filter((name) => cells[name] !== "")
        .map((name) => [name, cells[name]!])
    )
    const input = {
      product: { product_name: cells["product_name"], parameters, features: [{ name: cells["feature"] }] }
    }
    const old = Result.getOrThrow(Pricing.priceOfferRequest(oldTariffs, input, PRICING_DATE)).price
    const request = Pricing.pricingRequestOf(
      Result.getOrThrow(Offer.decodeOfferRequest(input, PRICING_DATE)).product,
      PRICING_DATE
    )
    return {
      line: index + 2,
      product_name: cells["product_name"]!,
      variant: old.facts.variant,
      weight: Number(cells["weight"]),
      old_ore: old.annual_total_ore,
      new_ore: priceNew(newTariffs, request)
    }
  })
}

/** Σ weight × øre in kroner, rounded half up to the øre, computed apart from the accumulator (weights have at most two decimals here). */
export const weightedKroner = (cases: ReadonlyArray<IndependentCase>, amount: (entry: IndependentCase) => number) => {
  const hundredthsOfOre = cases.reduce(
    (sum, entry) => sum + BigInt(Math.round(entry.weight * 100)) * BigInt(amount(entry)),
    0n
  )
  return Number((hundredthsOfOre + 50n) / 100n) / 100
}
