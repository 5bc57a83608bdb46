/**
 * The rating worksheet: a price's numbers (its pricing plan computes them) with
 * the words that explain every krone — coverage lines (base, each loading,
 * result), charges, the annual total and its rounding to `annually` and
 * `monthly`. Stored with each quote.
 * @module
 */
import { Schema } from "effect"
import { approximate, formatKroner } from "./Money.js"
import { PricingFacts, vehiclePriceOf } from "./PricingFacts.js"
import { basePremium, chargeBase, type PriceComputation } from "./PricingPlan.js"
import type { Charge, Premium } from "./Tariff.js"

const AppliedLoading = Schema.Struct({
  loading: Schema.String,
  percent: Schema.Int,
  rule: Schema.String
})

const CoverageLine = Schema.Struct({
  coverage: Schema.String,
  id: Schema.String,
  rule: Schema.String,
  /** Where the coverage stands in the listing: the position of the rule that added it. */
  position: Schema.Int,
  base_description: Schema.String,
  /** Exact base before loadings; may carry fractions of an øre. */
  base_ore: Schema.Finite,
  loadings: Schema.Array(AppliedLoading),
  /** Base × every loading factor, rounded half up to whole øre once. */
  premium_ore: Schema.Int,
  deductible_ore: Schema.optionalKey(Schema.Int),
  limit_ore: Schema.optionalKey(Schema.Int)
})
type CoverageLine = typeof CoverageLine.Type

const ChargeLine = Schema.Struct({
  charge: Schema.String,
  description: Schema.String,
  amount_ore: Schema.Int,
  shown_in_price_details: Schema.Boolean,
  listed_as_coverage: Schema.optionalKey(Schema.Struct({ id: Schema.String, position: Schema.Int }))
})
type ChargeLine = typeof ChargeLine.Type

// the worksheet records the facts, so its readers find them here; they live in a module of their own
export { PricingFacts, vehiclePriceOf }

/** Everything a price is made of. Stored with each quote, so its price can always be explained. */
export const RatingWorksheet = Schema.Struct({
  product_name: Schema.String,
  tariff_version: Schema.String,
  /** The version of the product's document the price was made under; absent in worksheets stored before products were documents. */
  product_version: Schema.optionalKey(Schema.String),
  pricing_date: Schema.String,
  facts: PricingFacts,
  coverage_lines: Schema.Array(CoverageLine),
  charge_lines: Schema.Array(ChargeLine),
  annual_total_ore: Schema.Int,
  /** Annual premium in whole kroner: the annual total rounded half up. */
  annually: Schema.Int,
  /** Monthly premium in whole kroner: annual total × (1 + surcharge) ÷ 12, rounded up. */
  monthly: Schema.Int,
  rounding: Schema.Struct({ annually: Schema.String, monthly: Schema.String })
})
export type RatingWorksheet = typeof RatingWorksheet.Type

const describeBase = (premium: Premium, vehiclePrice: number): string => {
  if (premium.type === "fixed") return `fixed ${formatKroner(premium.amount)} kr`
  let lowerBound = 0
  const parts: Array<string> = []
  for (const band of premium.bands) {
    const upperBound = band.up_to ?? Number.POSITIVE_INFINITY
    const portion = Math.max(0, Math.min(vehiclePrice, upperBound) - lowerBound)
    if (portion > 0) parts.push(`${(band.rate_basis_points / 100).toFixed(2)} % of ${portion} kr`)
    lowerBound = upperBound
  }
  return parts.join(" + ") || "no part of the price in any band"
}

const describeCharge = (charge: Charge, base: number, baseLines: ReadonlyArray<string>): string =>
  charge.type === "flat"
    ? `flat ${formatKroner(charge.amount)} kr per policy and year`
    : `${(charge.rate_basis_points / 100).toFixed(2)} % of ${formatKroner(base)} kr (${baseLines.join(", ") || "no coverage"}), rounded half up`

/** The worksheet of a price: its numbers with the words that explain each. */
export const worksheetOf = (computation: PriceComputation): RatingWorksheet => {
  const { plan, facts, recipe, annual_total_ore: annualTotal } = computation
  const tariff = plan.tariff
  const product = plan.product
  const coverageLines = recipe.lines.map(
    (line, index): CoverageLine => ({
      coverage: line.coverage,
      id: line.rule.instruction.type === "add_coverage" ? line.rule.instruction.params.id : "",
      rule: line.rule.name,
      position: line.rule.position,
      base_description: describeBase(line.premium, vehiclePriceOf(facts)),
      base_ore: approximate(basePremium(line.premium, vehiclePriceOf(facts))),
      loadings: line.loadings.map((loading) => ({
        loading: loading.instruction.type === "apply_loading" ? loading.instruction.params.loading : "",
        percent: loading.instruction.type === "apply_loading" ? loading.instruction.params.percent : 0,
        rule: loading.name
      })),
      premium_ore: computation.premiums[index]!,
      ...(line.deductible_ore === undefined ? {} : { deductible_ore: line.deductible_ore }),
      ...(line.limit_ore === undefined ? {} : { limit_ore: line.limit_ore })
    })
  )
  const chargeLines = recipe.charges.map(
    ({ charge, lines, listed_as_coverage: listed }, index): ChargeLine => ({
      charge: charge.charge,
      description: describeCharge(
        charge,
        chargeBase(computation, index),
        lines.map((line) => recipe.lines[line]!.coverage)
      ),
      amount_ore: computation.charge_amounts[index]!,
      shown_in_price_details: charge.shown_in_price_details,
      ...(listed === undefined ? {} : { listed_as_coverage: listed })
    })
  )
  return {
    product_name: tariff.product_name,
    tariff_version: tariff.version,
    ...(product === undefined ? {} : { product_version: product.version }),
    pricing_date: computation.pricing_date,
    facts,
    coverage_lines: coverageLines,
    charge_lines: chargeLines,
    annual_total_ore: annualTotal,
    annually: computation.annually,
    monthly: computation.monthly,
    rounding: {
      annually: `${formatKroner(annualTotal)} kr rounded half up to whole kroner = ${computation.annually} kr`,
      monthly: `${formatKroner(annualTotal)} kr × ${100 + tariff.monthly_surcharge_percent} % ÷ 12 = ${formatKroner(
        approximate(computation.monthly_exact),
        { decimals: 4 }
      )} kr, rounded up to whole kroner = ${computation.monthly} kr`
    }
  }
}
