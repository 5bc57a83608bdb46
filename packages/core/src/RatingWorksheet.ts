/**
 * The rating worksheet: the fired tariff instructions folded, in a fixed order,
 * into coverage lines (base, each loading, result), charges, the annual total
 * and its rounding to `annually` and `monthly`. It explains every krone.
 * Pure: the rules engine decides which rules fire; this module does the sums.
 */
import { Schema } from "effect"
import type { CalendarDate } from "./CalendarDate.js"
import { FEATURE_NAMES, PRODUCT_NAMES } from "./ProductCatalogue.js"
import {
  add,
  applyBasisPoints,
  applyPercent,
  approximate,
  exactOre,
  formatKroner,
  kronerHalfUp,
  kronerUp,
  multiplyExact,
  roundHalfUp,
  times,
  type ExactOre
} from "./Money.js"
import { chargesInForce, type Charge, type Instruction, type Premium, type Tariff } from "./Tariff.js"

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

/** A coverage line with its exact base: the numbers of a worksheet line, before any description. */
export interface PricedLine {
  readonly coverage: string
  readonly id: string
  readonly rule: string
  readonly position: number
  readonly base: ExactOre
  readonly basePremium: Premium
  readonly loadings: ReadonlyArray<typeof AppliedLoading.Type>
  readonly premium_ore: number
  readonly deductible_ore?: number
  readonly limit_ore?: number
}

/** A charge with its amount, and the lines it was levied on. */
export interface PricedCharge {
  readonly charge: string
  readonly row: Charge
  readonly base_lines: ReadonlyArray<string>
  readonly base_ore: number
  readonly amount_ore: number
  readonly shown_in_price_details: boolean
  readonly listed_as_coverage?: { readonly id: string; readonly position: number }
}

/** Everything a price is, as numbers: what an offer needs; a worksheet adds the words. */
export interface PriceComputation {
  readonly tariff: Tariff
  readonly facts: PricingFacts
  readonly pricing_date: CalendarDate
  readonly coverage_lines: ReadonlyArray<PricedLine>
  readonly charge_lines: ReadonlyArray<PricedCharge>
  readonly annual_total_ore: number
  readonly monthly_exact: ExactOre
  readonly annually: number
  readonly monthly: number
}

interface LineDraft {
  coverage: string
  id: string
  rule: string
  position: number
  basePremium: Premium
  base: ExactOre
  factor: ExactOre
  loadings: Array<typeof AppliedLoading.Type>
  deductible_ore?: number
  limit_ore?: number
}

const basePremiumOf = (premium: Premium, vehiclePrice: number): ExactOre => {
  if (premium.type === "fixed") return exactOre(premium.amount)
  // Σ part of the price in each band (kroner) × rate (basis points) = øre × 100
  let lowerBound = 0
  let numerator: ExactOre["numerator"] = 0
  for (const band of premium.bands) {
    const upperBound = band.up_to ?? Number.POSITIVE_INFINITY
    const portion = Math.max(0, Math.min(vehiclePrice, upperBound) - lowerBound)
    if (portion > 0) numerator = add(numerator, times(portion, band.rate_basis_points))
    lowerBound = upperBound
  }
  return { numerator, denominator: 100 }
}

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

// Coverages are added first, then terms set, then loadings applied — whatever order the rules fired in.
const PHASE: Record<Instruction["type"], number> = {
  add_coverage: 0,
  list_charge_as_coverage: 0,
  set_deductible: 1,
  set_limit: 1,
  apply_loading: 2
}

const priceCharge = (
  charge: Charge,
  lines: ReadonlyArray<PricedLine>,
  listed: { readonly id: string; readonly position: number } | undefined
): PricedCharge => {
  const baseLines: Array<string> = []
  let base = 0
  let amount = 0
  if (charge.type === "flat") {
    amount = charge.amount
  } else {
    const named = charge.base.coverages
    const inBase = charge.base.type === "coverages"
    for (const line of lines) {
      if (named.includes(line.coverage) !== inBase) continue
      baseLines.push(line.coverage)
      base += line.premium_ore
    }
    amount = roundHalfUp(applyBasisPoints(exactOre(base), charge.rate_basis_points))
  }
  const priced: Mutable<PricedCharge> = {
    charge: charge.charge,
    row: charge,
    base_lines: baseLines,
    base_ore: base,
    amount_ore: amount,
    shown_in_price_details: charge.shown_in_price_details
  }
  if (listed !== undefined) priced.listed_as_coverage = listed
  return priced
}

type Mutable<T> = { -readonly [Key in keyof T]: T[Key] }

/**
 * Folds the fired rules of a tariff (in tariff order) into the price, as
 * numbers. Throws when two rules add the same coverage: the tariff is wrong.
 */
export const foldPrice = (
  tariff: Tariff,
  facts: PricingFacts,
  pricingDate: CalendarDate,
  firedRules: ReadonlyArray<FiredRule>
): PriceComputation => {
  const lines = new Map<string, LineDraft>()
  const listedCharges = new Map<string, { id: string; position: number }>()
  for (let phase = 0; phase <= 2; phase++) for (const { name, position, instruction } of firedRules) {
    if (PHASE[instruction.type] !== phase) continue
    switch (instruction.type) {
      case "add_coverage": {
        const { coverage, id, premium } = instruction.params
        const existing = lines.get(coverage)
        if (existing !== undefined) {
          throw new Error(`tariff ${tariff.version}: coverage ${coverage} is added by both "${existing.rule}" and "${name}"`)
        }
        lines.set(coverage, {
          coverage,
          id,
          rule: name,
          position,
          basePremium: premium,
          base: basePremiumOf(premium, facts.vehicle_price),
          factor: exactOre(1),
          loadings: []
        })
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
  const pricedLines: Array<PricedLine> = []
  for (const line of lines.values()) {
    const priced: Mutable<PricedLine> = {
      coverage: line.coverage,
      id: line.id,
      rule: line.rule,
      position: line.position,
      base: line.base,
      basePremium: line.basePremium,
      loadings: line.loadings,
      premium_ore: roundHalfUp(multiplyExact(line.base, line.factor))
    }
    if (line.deductible_ore !== undefined) priced.deductible_ore = line.deductible_ore
    if (line.limit_ore !== undefined) priced.limit_ore = line.limit_ore
    pricedLines.push(priced)
  }
  const chargeLines = chargesInForce(tariff, pricingDate).map((charge) => priceCharge(charge, pricedLines, listedCharges.get(charge.charge)))
  let annualTotal = 0
  for (const line of pricedLines) annualTotal += line.premium_ore
  for (const line of chargeLines) annualTotal += line.amount_ore
  const monthlyExact = { numerator: times(annualTotal, 100 + tariff.monthly_surcharge_percent), denominator: 1200 }
  return {
    tariff,
    facts,
    pricing_date: pricingDate,
    coverage_lines: pricedLines,
    charge_lines: chargeLines,
    annual_total_ore: annualTotal,
    monthly_exact: monthlyExact,
    annually: kronerHalfUp(annualTotal),
    monthly: kronerUp(monthlyExact)
  }
}

const describeCharge = (charge: PricedCharge): string =>
  charge.row.type === "flat"
    ? `flat ${formatKroner(charge.row.amount)} kr per policy and year`
    : `${(charge.row.rate_basis_points / 100).toFixed(2)} % of ${formatKroner(charge.base_ore)} kr (${charge.base_lines.join(", ") || "no coverage"}), rounded half up`

/** The worksheet of a price: its numbers with the words that explain each. */
export const worksheetOf = (price: PriceComputation): RatingWorksheet => {
  const { tariff, annual_total_ore: annualTotal } = price
  return {
    product_name: tariff.product_name,
    tariff_version: tariff.version,
    pricing_date: price.pricing_date,
    facts: price.facts,
    coverage_lines: price.coverage_lines.map(({ base, basePremium, ...line }) => ({
      ...line,
      base_description: describeBase(basePremium, price.facts.vehicle_price),
      base_ore: approximate(base)
    })),
    charge_lines: price.charge_lines.map((charge) => {
      const { row: _row, base_lines: _baseLines, base_ore: _baseOre, ...shown } = charge
      return { ...shown, description: describeCharge(charge) }
    }),
    annual_total_ore: annualTotal,
    annually: price.annually,
    monthly: price.monthly,
    rounding: {
      annually: `${formatKroner(annualTotal)} kr rounded half up to whole kroner = ${price.annually} kr`,
      monthly: `${formatKroner(annualTotal)} kr × ${100 + tariff.monthly_surcharge_percent} % ÷ 12 = ${
        (approximate(price.monthly_exact) / 100).toFixed(4)
      } kr, rounded up to whole kroner = ${price.monthly} kr`
    }
  }
}
