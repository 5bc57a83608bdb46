/**
 * The rating worksheet: the fired tariff instructions folded, in a fixed order,
 * into coverage lines (base, each loading, result), charges, the annual total
 * and its rounding to `annually` and `monthly`. It explains every krone.
 * Pure: the rules engine decides which rules fire; this module does the sums.
 */
import { Schema } from "effect"
import type { CalendarDate } from "./CalendarDate.js"
import { FEATURE_NAMES, PRODUCT_NAMES, type FeatureName, type ProductName } from "./ProductCatalogue.js"
import {
  applyBasisPoints,
  applyPercent,
  approximate,
  exactOre,
  formatKroner,
  kronerHalfUp,
  kronerUp,
  roundHalfUp,
  type ExactOre
} from "./Money.js"
import { chargesInForce, type Charge, type Instruction, type Premium, type Tariff } from "./Tariff.js"
import type { Variant } from "./Variant.js"

export const AppliedLoading = Schema.Struct({
  loading: Schema.String,
  percent: Schema.Int,
  rule: Schema.String
})

export const CoverageLine = Schema.Struct({
  coverage: Schema.String,
  id: Schema.String,
  rule: Schema.String,
  /** Where the coverage stands in the listing: the position of the rule that added it. */
  position: Schema.Int,
  base_description: Schema.String,
  /** Exact base before loadings; may carry fractions of an øre. */
  base_ore: Schema.Number,
  loadings: Schema.Array(AppliedLoading),
  /** Base × every loading factor, rounded half up to whole øre once. */
  premium_ore: Schema.Int,
  deductible_ore: Schema.optionalWith(Schema.Int, { exact: true }),
  limit_ore: Schema.optionalWith(Schema.Int, { exact: true })
})
export type CoverageLine = typeof CoverageLine.Type

export const ChargeLine = Schema.Struct({
  charge: Schema.String,
  description: Schema.String,
  amount_ore: Schema.Int,
  shown_in_price_details: Schema.Boolean,
  listed_as_coverage: Schema.optionalWith(Schema.Struct({ id: Schema.String, position: Schema.Int }), { exact: true })
})
export type ChargeLine = typeof ChargeLine.Type

export const PricingFacts = Schema.Struct({
  product_name: Schema.Literal(...PRODUCT_NAMES),
  variant: Schema.Literal("standard", "extended"),
  feature: Schema.Literal(...FEATURE_NAMES),
  vehicle_type: Schema.String,
  vehicle_usage: Schema.String,
  vehicle_price: Schema.Int,
  youngest_driver_age: Schema.NullOr(Schema.Int)
})
export type PricingFacts = typeof PricingFacts.Type

/** Everything a price is made of. Stored with each quote, so its price can always be explained. */
export const RatingWorksheet = Schema.Struct({
  product_name: Schema.Literal(...PRODUCT_NAMES),
  tariff_version: Schema.String,
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

/** A rule whose conditions held, with its position in the tariff. */
export interface FiredRule {
  readonly name: string
  readonly position: number
  readonly instruction: Instruction
}

interface LineDraft {
  coverage: string
  id: string
  rule: string
  position: number
  base_description: string
  base: ExactOre
  factor: ExactOre
  loadings: Array<typeof AppliedLoading.Type>
  deductible_ore?: number
  limit_ore?: number
}

const basePremium = (premium: Premium, vehiclePrice: number): { readonly base: ExactOre; readonly description: string } => {
  if (premium.type === "fixed") return { base: exactOre(premium.amount), description: `fixed ${formatKroner(premium.amount)} kr` }
  // Σ part of the price in each band (kroner) × rate (basis points) = øre × 100
  let lowerBound = 0
  let numerator = 0n
  const parts: Array<string> = []
  for (const band of premium.bands) {
    const upperBound = band.up_to ?? Number.POSITIVE_INFINITY
    const portion = Math.max(0, Math.min(vehiclePrice, upperBound) - lowerBound)
    if (portion > 0) {
      numerator += BigInt(portion) * BigInt(band.rate_basis_points)
      parts.push(`${(band.rate_basis_points / 100).toFixed(2)} % of ${portion} kr`)
    }
    lowerBound = upperBound
  }
  return { base: { numerator, denominator: 100n }, description: parts.join(" + ") || "no part of the price in any band" }
}

// Coverages are added first, then terms set, then loadings applied — whatever order the rules fired in.
const PHASE: Record<Instruction["type"], number> = {
  add_coverage: 0,
  list_charge_as_coverage: 0,
  set_deductible: 1,
  set_limit: 1,
  apply_loading: 2
}

const chargeLine = (charge: Charge, lines: ReadonlyArray<LineDraft & { premium_ore: number }>): ChargeLine => {
  if (charge.type === "flat") {
    return {
      charge: charge.charge,
      description: `flat ${formatKroner(charge.amount)} kr per policy and year`,
      amount_ore: charge.amount,
      shown_in_price_details: charge.shown_in_price_details
    }
  }
  const inBase = (line: LineDraft) =>
    charge.base.type === "coverages"
      ? charge.base.coverages.includes(line.coverage)
      : !charge.base.coverages.includes(line.coverage)
  const baseLines = lines.filter(inBase)
  const base = baseLines.reduce((sum, line) => sum + line.premium_ore, 0)
  return {
    charge: charge.charge,
    description: `${(charge.rate_basis_points / 100).toFixed(2)} % of ${formatKroner(base)} kr (${
      baseLines.map((line) => line.coverage).join(", ") || "no coverage"
    }), rounded half up`,
    amount_ore: roundHalfUp(applyBasisPoints(exactOre(base), charge.rate_basis_points)),
    shown_in_price_details: charge.shown_in_price_details
  }
}

/** Folds the fired rules of a tariff into the worksheet. Throws when two rules add the same coverage: the tariff is wrong. */
export const foldWorksheet = (
  tariff: Tariff,
  facts: PricingFacts,
  pricingDate: CalendarDate,
  firedRules: ReadonlyArray<FiredRule>
): RatingWorksheet => {
  const ordered = [...firedRules].sort(
    (a, b) => PHASE[a.instruction.type] - PHASE[b.instruction.type] || a.position - b.position
  )
  const lines = new Map<string, LineDraft>()
  const listedCharges = new Map<string, { id: string; position: number }>()
  for (const { name, position, instruction } of ordered) {
    switch (instruction.type) {
      case "add_coverage": {
        const { coverage, id, premium } = instruction.params
        const existing = lines.get(coverage)
        if (existing !== undefined) {
          throw new Error(`tariff ${tariff.version}: coverage ${coverage} is added by both "${existing.rule}" and "${name}"`)
        }
        const { base, description } = basePremium(premium, facts.vehicle_price)
        lines.set(coverage, { coverage, id, rule: name, position, base_description: description, base, factor: exactOre(1), loadings: [] })
        break
      }
      case "list_charge_as_coverage":
        listedCharges.set(instruction.params.charge, { id: instruction.params.id, position })
        break
      case "set_deductible": {
        const line = lines.get(instruction.params.coverage)
        if (line !== undefined) line.deductible_ore = instruction.params.amount
        break
      }
      case "set_limit": {
        const line = lines.get(instruction.params.coverage)
        if (line !== undefined) line.limit_ore = instruction.params.amount
        break
      }
      case "apply_loading":
        for (const coverage of instruction.params.coverages) {
          const line = lines.get(coverage)
          if (line === undefined) continue
          line.factor = applyPercent(line.factor, instruction.params.percent)
          line.loadings.push({ loading: instruction.params.loading, percent: instruction.params.percent, rule: name })
        }
        break
    }
  }
  const pricedLines = [...lines.values()].map((line) => ({
    ...line,
    premium_ore: roundHalfUp({
      numerator: line.base.numerator * line.factor.numerator,
      denominator: line.base.denominator * line.factor.denominator
    })
  }))
  const chargeLines = chargesInForce(tariff, pricingDate).map((charge) => {
    const listed = listedCharges.get(charge.charge)
    const line = chargeLine(charge, pricedLines)
    return listed === undefined ? line : { ...line, listed_as_coverage: listed }
  })
  const annualTotal =
    pricedLines.reduce((sum, line) => sum + line.premium_ore, 0) + chargeLines.reduce((sum, line) => sum + line.amount_ore, 0)
  const monthlyExact = {
    numerator: BigInt(annualTotal) * BigInt(100 + tariff.monthly_surcharge_percent),
    denominator: 100n * 12n
  }
  const annually = kronerHalfUp(annualTotal)
  const monthly = kronerUp(monthlyExact)
  return {
    product_name: tariff.product_name,
    tariff_version: tariff.version,
    pricing_date: pricingDate,
    facts,
    coverage_lines: pricedLines.map(({ base, factor: _factor, ...line }) => ({
      ...line,
      base_ore: approximate(base)
    })),
    charge_lines: chargeLines,
    annual_total_ore: annualTotal,
    annually,
    monthly,
    rounding: {
      annually: `${formatKroner(annualTotal)} kr rounded half up to whole kroner = ${annually} kr`,
      monthly: `${formatKroner(annualTotal)} kr × ${100 + tariff.monthly_surcharge_percent} % ÷ 12 = ${
        (approximate(monthlyExact) / 100).toFixed(4)
      } kr, rounded up to whole kroner = ${monthly} kr`
    }
  }
}

/** The product, variant and feature a worksheet priced. */
export const pricedSelection = (
  worksheet: RatingWorksheet
): { readonly product_name: ProductName; readonly variant: Variant; readonly feature: FeatureName } => ({
  product_name: worksheet.product_name,
  variant: worksheet.facts.variant,
  feature: worksheet.facts.feature
})
