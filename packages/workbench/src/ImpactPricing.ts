/**
 * One portfolio case priced under the old and the new tariff version, by the
 * production engine (the compiled tariff): what the impact accumulator adds.
 * A case is decoded as an offer request is, so a case the service would refuse
 * is rejected here with the same reasons, each naming the portfolio's column.
 * Browser-safe, like the accumulator.
 */
import { CalendarDate, Offer, Pricing, type ProductCatalogue, Tariff } from "@kasko/core/actuarial"
import { Result } from "effect"
import { type CaseOutcome, WEIGHT_SCALE } from "./CaseOutcome.js"
import { catalogueOfProducts } from "./ComparisonCatalogue.js"

/** A case of the portfolio as read: cells as text, blank parameters left out. */
export interface PortfolioRow {
  /** Its line in the file (or its place in the store's listing), for messages and movers. */
  readonly line: number
  /** Empty: the case is called by its line. */
  readonly policy_id: string
  /** Undefined when the portfolio has no such column: the product compared, when the comparison has one. */
  readonly product_name: string | undefined
  /** Undefined when the portfolio has no such column: `standard`. */
  readonly feature: string | undefined
  readonly parameters: Readonly<Record<string, string>>
  /** Empty: 1. Otherwise a number ≥ 0 with at most four decimals. */
  readonly weight: string
  /** Empty: not known. Otherwise kroner with at most two decimals. */
  readonly current_premium: string
}

/**
 * The two sides of an impact test: tariff versions, the date both price on, a scaling of the new side, and the
 * products added to the shipped ones. Plain data but for the tariffs, which a structured clone carries.
 */
export interface TariffComparison {
  readonly old: ReadonlyArray<Tariff.Tariff>
  readonly new: ReadonlyArray<Tariff.Tariff>
  readonly pricing_date: string
  /** One coverage of every new tariff scaled exactly (the target solver's factor). */
  readonly scaling?: Pricing.CoverageScaling
  /**
   * Product documents (JSON, as `product.json` holds them) of products added to the shipped ones — an insurer's
   * own, a document named like a shipped product replacing it (`catalogueOfProducts`): the catalogue whose
   * products the cases are decoded as and the tariffs price (decode them against it). Undefined: the shipped.
   */
  readonly products?: ReadonlyArray<unknown>
}

/** A product both sides price, and the version each side prices it with. */
export interface ComparedProduct {
  readonly product_name: ProductCatalogue.ProductName
  readonly old: Tariff.Tariff
  readonly new: Tariff.Tariff
}

/** A side's tariff of a product: its only version of that product, else the one in force on the date. */
const tariffOf = (
  tariffs: ReadonlyArray<Tariff.Tariff>,
  product: ProductCatalogue.ProductName,
  date: string
): Tariff.Tariff | undefined => {
  const versions = tariffs.filter((tariff) => tariff.product_name === product)
  return versions.length === 1 ? versions[0] : Tariff.tariffInForce(versions, product, date)
}

/** The date an impact test prices on unless told: the day the newest version of the new side takes effect. */
export const defaultPricingDate = (tariffs: ReadonlyArray<Tariff.Tariff>): string =>
  tariffs
    .map((tariff) => tariff.effective_from)
    .sort()
    .at(-1) ?? "0000-01-01"

/** The products both sides of a comparison price, with their versions, in the order of its catalogue. */
export const comparedProducts = (comparison: TariffComparison): Array<ComparedProduct> => {
  if (!CalendarDate.isCalendarDate(comparison.pricing_date))
    throw new Error(`the pricing date must be YYYY-MM-DD, not "${comparison.pricing_date}"`)
  return catalogueOfProducts(comparison.products).productNames.flatMap((product_name) => {
    const old = tariffOf(comparison.old, product_name, comparison.pricing_date)
    const next = tariffOf(comparison.new, product_name, comparison.pricing_date)
    return old === undefined || next === undefined ? [] : [{ product_name, old, new: next }]
  })
}

/** The pricing request's path as the portfolio's column: `product.parameters.vehicle_price` → `vehicle_price`. */
const columnOf = (field: string): string => {
  if (field.startsWith("product.parameters.")) return field.slice("product.parameters.".length)
  if (field === "product.product_name") return "product_name"
  if (field.startsWith("product.features")) return "feature"
  return field
}

const WEIGHT = /^(\d{1,7})(?:\.(\d{1,4}))?$/
const KRONER = /^(\d{1,9})(?:\.(\d{1,2}))?$/

/** The weight × WEIGHT_SCALE, or undefined when the text is not a weight. */
export const weightUnitsOf = (text: string): number | undefined => {
  // the usual weights, without the regular expression
  if (text === "" || text === "1") return WEIGHT_SCALE
  const match = WEIGHT.exec(text)
  return match === null ? undefined : Number(match[1]) * WEIGHT_SCALE + Number((match[2] ?? "").padEnd(4, "0"))
}

/** Øre of kroner with at most two decimals, or undefined. */
const oreOf = (text: string): number | undefined => {
  const match = KRONER.exec(text)
  return match === null ? undefined : Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"))
}

/**
 * A function pricing portfolio cases under both sides of the comparison: a case's outcome is
 * priced, rejected with its reasons, or not compared (its product lacks a tariff on a side).
 */
export const impactPricer = (comparison: TariffComparison): ((row: PortfolioRow) => CaseOutcome) => {
  const catalogue = catalogueOfProducts(comparison.products)
  const products = comparedProducts(comparison)
  const date = comparison.pricing_date
  const scaling = comparison.scaling
  const sides = new Map(
    products.map((product) => {
      const newPrice =
        scaling === undefined
          ? (request: Pricing.PricingRequest) => Pricing.priceWith(product.new, request)
          : Pricing.scaledPricer(product.new, scaling)
      return [product.product_name as string, { old: product.old, newPrice }] as const
    })
  )
  const onlyProduct = products.length === 1 ? products[0]!.product_name : undefined
  const firstFeature = (product: string) => catalogue.document(product)?.features[0]?.name ?? "standard"
  return (row) => {
    const policy_id = row.policy_id === "" ? `line ${row.line}` : row.policy_id
    const reasons: Array<string> = []
    const productName = row.product_name === undefined || row.product_name === "" ? onlyProduct : row.product_name
    if (productName === undefined)
      reasons.push(
        row.product_name === undefined
          ? "product_name: the portfolio has no product_name column and the versions compared price several products"
          : "product_name: is empty and the versions compared price several products"
      )
    const weight = weightUnitsOf(row.weight)
    if (weight === undefined) reasons.push("weight: must be a number from 0 with at most four decimals")
    const current = row.current_premium === "" ? undefined : oreOf(row.current_premium)
    if (row.current_premium !== "" && current === undefined)
      reasons.push("current_premium: must be kroner with at most two decimals")
    const product_name = productName ?? catalogue.productNames[0]!
    const decoded = Offer.decodeOfferRequest(
      {
        product: {
          product_name,
          // decoded as its own product's: a parameter it lacks, or a product the catalogue lacks, is a reason
          parameters: row.parameters,
          // a blank feature cell is the product's first feature (the seed products' standard), as a blank
          // product_name is the only product
          features: [
            { name: row.feature === undefined || row.feature === "" ? firstFeature(product_name) : row.feature }
          ]
        }
      },
      date,
      catalogue
    )
    if (Result.isFailure(decoded))
      for (const violation of decoded.failure.violations)
        reasons.push(`${columnOf(violation.field)}: ${violation.message}`)
    if (reasons.length > 0 || Result.isFailure(decoded)) return { kind: "rejected", line: row.line, policy_id, reasons }
    const selection = decoded.success.product
    const side = sides.get(selection.product_name)
    if (side === undefined)
      return { kind: "not_compared", line: row.line, policy_id, product_name: selection.product_name }
    const request = Pricing.pricingRequestOf(selection, date)
    return {
      kind: "priced",
      line: row.line,
      policy_id,
      weight_units: weight!,
      current_ore: current,
      parameters: row.parameters,
      old: Pricing.priceWith(side.old, request),
      new: side.newPrice(request)
    }
  }
}
