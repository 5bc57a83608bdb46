/**
 * An impact test from start to end, whoever prices: one pass over the book
 * gives the report; a target adds the passes that solve for its factor. A pass
 * is the caller's (`runPass`): the command runs it on worker threads over a
 * file or the store, the workbench page on web workers over a file in the
 * browser — each returns the accumulator its workers' states merged into.
 * Browser-safe.
 */
import type { CapBounds, Fraction } from "./CapBounds.js"
import { WEIGHT_SCALE } from "./CaseOutcome.js"
import type { ImpactAccumulator, ImpactOptions } from "./ImpactAccumulator.js"
import type { ImpactReport } from "./ImpactReport.js"
import { money } from "./ReportFigures.js"
import { kronerOfUnits, percentChange } from "./RunningTotals.js"
import { catalogueOfProducts } from "./ComparisonCatalogue.js"
import { comparedProducts, type TariffComparison } from "./ImpactPricing.js"
import { type ParameterSegmentation, parameterSegmentationsOf } from "./ParameterSegments.js"
import {
  FACTOR_DECIMALS,
  FACTOR_DENOMINATOR,
  type FactorPoint,
  type FactorSolution,
  factorText,
  linearFactor,
  solveMonotone,
  stepToLevel,
  targetTotal
} from "./TargetFactor.js"

/** What one pass over the book prices with: the accumulator's options, and a scaling of the new side. */
export interface ImpactPass {
  readonly impact: ImpactOptions
  /** One coverage of the new tariffs scaled by numerator / FACTOR_DENOMINATOR (the target's passes). */
  readonly scaling?: { readonly coverage: string; readonly numerator: bigint }
}

/** Runs a pass over the whole book and answers the accumulator its parts merged into. */
export type RunPass = (pass: ImpactPass) => Promise<ImpactAccumulator>

/** A target change of the book's premium, and what the uniform factor is on. */
export interface ImpactTarget {
  /** The change wanted, in per cent of the old total (at most four decimals): 3 for +3 %. */
  readonly percent: number
  /** `premium` (the whole premium, the default) or a coverage's name, whose rates the factor scales. */
  readonly on?: string
}

/** The factor found, and what the book comes to with it. */
export interface TargetResult {
  readonly on: string
  readonly target_percent: number
  /** Which total the factor makes hit the target: the capped one when caps are set. */
  readonly applies_to: "premium" | "capped premium"
  /**
   * The factor, an exact decimal. When the target is out of reach: the factor nearest it beyond which
   * moving the factor further changes nothing — the smallest that takes the total to its highest, or
   * the largest that leaves it at its lowest.
   */
  readonly factor: string
  readonly old_kroner: number
  readonly target_kroner: number
  /** The total the factor gives (the capped total when caps are set). */
  readonly achieved_kroner: number
  readonly achieved_change_percent: number | null
  readonly difference_kroner: number
  readonly within_one_krone: boolean
  /** False when no factor can reach the target: the caps' bounds, or what the factor is on, rule it out. */
  readonly reachable: boolean
  /** Why the target is out of reach (when it is): "the caps bound the total to [floor, ceiling] kr", say. */
  readonly unreachable_reason?: string
  /** With caps set: the least and the most the capped total can be, whatever the factor (no ceiling: null). */
  readonly bounds_kroner?: { readonly floor: number; readonly ceiling: number | null }
  /** Re-pricings of the book the solve took (0: the book already within one krone of the target). */
  readonly passes: number
  /** With caps set: the uncapped total with the factor, beside the capped one targeted. */
  readonly uncapped_kroner?: number
}

/** What an impact test reports: the versions compared, the date they priced on, the report, the target's factor. */
export interface ImpactResult {
  readonly pricing_date: string
  readonly compared: ReadonlyArray<{
    readonly product_name: string
    readonly old_version: string
    readonly new_version: string
  }>
  readonly report: ImpactReport
  readonly target: TargetResult | null
}

const ONE_KRONE = BigInt(100 * WEIGHT_SCALE)
/** Doublings of a coverage's factor, searching for where its total stops rising: up to 2^40. */
const MAX_DOUBLINGS = 40
/**
 * An unreachable target's factor on a coverage is found to six decimals: its last step is often one
 * policy's rounding to the øre, which only bisection finds — some thirty re-pricings more for all 15.
 */
const COVERAGE_LIMIT_DECIMALS = 6
const COVERAGE_LIMIT_STEP = 10n ** BigInt(FACTOR_DECIMALS - COVERAGE_LIMIT_DECIMALS)

/** The smallest numerator n with n / FACTOR_DENOMINATOR ≥ the fraction. */
const factorAtLeast = (fraction: Fraction): bigint =>
  (fraction.numerator * FACTOR_DENOMINATOR + fraction.denominator - 1n) / fraction.denominator

/** Runs an impact test: the report from one pass, and, with a target, the passes that solve for its factor. */
export const runImpact = async (
  comparison: TariffComparison,
  impact: ImpactOptions,
  target: ImpactTarget | undefined,
  runPass: RunPass
): Promise<ImpactResult> => {
  const products = comparedProducts(comparison)
  const on = target?.on ?? "premium"
  if (target !== undefined && on !== "premium") {
    const offered = products.some((product) =>
      product.new.rules.some((rule) => rule.event.type === "add_coverage" && rule.event.params.coverage === on)
    )
    if (!offered) throw new Error(`no rule of the new version adds the coverage "${on}": the factor cannot be on it`)
  }
  // a target that is no per cent is refused before the book is priced
  if (target !== undefined) targetTotal(0n, target.percent)
  const segmented: ImpactOptions =
    impact.parameter_segments === undefined
      ? withParameterSegments(impact, parameterSegmentationsOf(products, catalogueOfProducts(comparison.products)))
      : impact
  const main = await runPass({ impact: segmented })
  const result: ImpactResult = {
    pricing_date: comparison.pricing_date,
    compared: products.map((product) => ({
      product_name: product.product_name,
      old_version: product.old.version,
      new_version: product.new.version
    })),
    report: main.finish(),
    target: null
  }
  if (target === undefined) return result
  return { ...result, target: await solveTarget(main, segmented, target, on, runPass) }
}

/** The options with the parameters to segment by, when there are any: without, the options as given. */
const withParameterSegments = (
  impact: ImpactOptions,
  segmentations: ReadonlyArray<ParameterSegmentation>
): ImpactOptions => (segmentations.length === 0 ? impact : { ...impact, parameter_segments: segmentations })

/** Which way the target lies beyond what a factor reaches: above the highest total, or below the lowest. */
type Beyond = "above" | "below"

const solveTarget = async (
  main: ImpactAccumulator,
  impact: ImpactOptions,
  target: ImpactTarget,
  on: string,
  runPass: RunPass
): Promise<TargetResult> => {
  const { totals, cap_bounds: bounds } = main.state()
  const capped = bounds !== null
  const goal = targetTotal(totals.old, target.percent)
  // a solve's passes need the totals alone: no movers, no parameter's segments
  const quiet: ImpactOptions = { ...impact, top_movers: 0, parameter_segments: [] }
  const onWhat = on === "premium" ? "the whole premium" : `the rates of ${on}`
  // the totals of each pass, by factor: the one kept is read back for the other total
  const passes = new Map<bigint, { readonly new: bigint; readonly capped: bigint }>()
  let repricings = 0
  // a factor on the whole premium lands in the capped total (the accumulator applies it there, caps or not)
  const solved = (totals: { readonly new: bigint; readonly capped: bigint }) =>
    on === "premium" || capped ? totals.capped : totals.new
  const atOne = { numerator: FACTOR_DENOMINATOR, total: solved(totals) }
  passes.set(FACTOR_DENOMINATOR, { new: totals.new, capped: totals.capped })
  /** The solved total with the factor: a re-pricing of the book, unless that factor's is known. */
  const evaluate = async (numerator: bigint): Promise<bigint> => {
    const known = passes.get(numerator)
    if (known !== undefined) return solved(known)
    const pass: ImpactPass =
      on === "premium"
        ? { impact: { ...quiet, premium_factor: { numerator, denominator: FACTOR_DENOMINATOR } } }
        : { impact: quiet, scaling: { coverage: on, numerator } }
    const state = (await runPass(pass)).state().totals
    repricings++
    passes.set(numerator, { new: state.new, capped: state.capped })
    return solved(state)
  }
  // the uncapped total with the factor: linear on the whole premium (the accumulator keeps no uncapped × factor total)
  const uncapped = (numerator: bigint) =>
    on === "premium"
      ? (totals.new * numerator + FACTOR_DENOMINATOR / 2n) / FACTOR_DENOMINATOR
      : (passes.get(numerator)?.new ?? totals.new)
  const wanted = (goal.numerator + goal.denominator / 2n) / goal.denominator
  /** Where the target lies beyond a bound of the total, more than a krone out: undefined when not beyond it. */
  const beyond = (lowest: bigint, highest: bigint | null): Beyond | undefined => {
    const tolerance = ONE_KRONE * goal.denominator
    if (goal.numerator - lowest * goal.denominator < -tolerance) return "below"
    if (highest !== null && goal.numerator - highest * goal.denominator > tolerance) return "above"
    return undefined
  }
  const resultOf = (point: FactorPoint, unreachable?: string): TargetResult => {
    const difference = point.total - wanted
    return {
      on,
      target_percent: target.percent,
      applies_to: capped ? "capped premium" : "premium",
      factor: factorText(point.numerator),
      old_kroner: kronerOfUnits(totals.old),
      target_kroner: kronerOfUnits(wanted),
      achieved_kroner: kronerOfUnits(point.total),
      achieved_change_percent: percentChange(totals.old, point.total),
      difference_kroner: kronerOfUnits(difference),
      within_one_krone: (difference < 0n ? -difference : difference) <= ONE_KRONE,
      reachable: unreachable === undefined,
      ...(unreachable === undefined ? {} : { unreachable_reason: unreachable }),
      ...(bounds === null
        ? {}
        : {
            bounds_kroner: {
              floor: kronerOfUnits(bounds.floor),
              ceiling: bounds.ceiling === null ? null : kronerOfUnits(bounds.ceiling)
            }
          }),
      passes: repricings,
      ...(capped ? { uncapped_kroner: kronerOfUnits(uncapped(point.numerator)) } : {})
    }
  }

  /**
   * The factor on the whole premium nearest an unreachable target, without re-pricing: each policy's
   * capped premium is its floor below one factor and its highest from another (`CapBounds`), so the
   * largest factor leaving the total at its floor and the smallest taking it to its highest are exact.
   */
  const premiumLimit = (capBounds: CapBounds, side: Beyond, reason: string): TargetResult => {
    if (side === "above")
      return resultOf(
        { numerator: factorAtLeast(capBounds.premium_highest_from), total: capBounds.premium_highest! },
        reason
      )
    const below = capBounds.premium_floor_below
    // no policy moves with the factor: every factor leaves the total at its floor, the book's own among them
    if (below.denominator === 0n) return resultOf({ numerator: FACTOR_DENOMINATOR, total: capBounds.floor }, reason)
    return resultOf({ numerator: factorAtLeast(below) - 1n, total: capBounds.floor }, reason)
  }

  /**
   * The factor on a coverage's rates nearest an unreachable target, by re-pricing: below, the largest
   * factor whose total is a factor of 0's; above, the smallest whose total is where doubling the factor
   * stops moving it (each policy's capped premium only rises with the factor, so a total that does not
   * move over a doubling has every policy the factor moves held by its cap).
   */
  const coverageLimit = async (side: Beyond): Promise<FactorPoint> => {
    const point = async (numerator: bigint): Promise<FactorPoint> => ({ numerator, total: await evaluate(numerator) })
    // the factors the solve tried set the first secants
    const known = () => [...passes].map(([numerator, totals]) => ({ numerator, total: solved(totals) }))
    if (side === "below") {
      const zero = await point(0n)
      let upper = atOne
      for (let doublings = 0; upper.total === zero.total && doublings < MAX_DOUBLINGS; doublings++)
        upper = await point(upper.numerator * 2n)
      if (upper.total === zero.total) return upper
      return (
        await stepToLevel({
          level: zero.total + 1n,
          lower: zero,
          upper,
          known: known(),
          evaluate,
          step: COVERAGE_LIMIT_STEP
        })
      ).lower
    }
    const tried = [atOne]
    for (let doublings = 0; doublings < MAX_DOUBLINGS; doublings++) {
      const last = tried.at(-1)!
      if (tried.length > 1 && last.total === tried.at(-2)!.total) break
      if (bounds !== null && last.total === bounds.ceiling) break
      tried.push(await point(last.numerator * 2n))
    }
    const level = tried.at(-1)!.total
    const upper = tried.find((entry) => entry.total === level)!
    const lower = tried.filter((entry) => entry.total < level).at(-1) ?? (await point(0n))
    if (lower.total === level) return lower
    return (await stepToLevel({ level, lower, upper, known: known(), evaluate, step: COVERAGE_LIMIT_STEP })).upper
  }

  // beyond the caps' bounds no factor reaches the target: known from the book's own pass
  if (bounds !== null) {
    const side = beyond(bounds.floor, bounds.ceiling)
    if (side !== undefined) {
      const reason = `the caps bound the total to [${money(kronerOfUnits(bounds.floor))}, ${bounds.ceiling === null ? "∞)" : `${money(kronerOfUnits(bounds.ceiling))}]`} kr`
      return on === "premium" ? premiumLimit(bounds, side, reason) : resultOf(await coverageLimit(side), reason)
    }
    if (on === "premium" && beyond(bounds.floor, bounds.premium_highest) === "above")
      return premiumLimit(
        bounds,
        "above",
        `no factor on the whole premium takes the capped total above ${money(kronerOfUnits(bounds.premium_highest!))} kr: the policies the new version prices at 0 kr stay at their floor`
      )
  } else if (on === "premium" && totals.new === 0n && beyond(0n, 0n) !== undefined)
    return resultOf(
      { numerator: 0n, total: 0n },
      "the new version prices every policy at 0 kr, which no factor on the whole premium moves"
    )
  // Even uncapped, the linear factor (target ÷ new total) is only a first guess: each premium × the
  // factor is rounded to the øre policy by policy, and those roundings add up on a large book.
  const moving = on === "premium" ? totals.new : solved(totals)
  const solution: FactorSolution = await solveMonotone({
    target: goal,
    tolerance: ONE_KRONE,
    evaluate,
    known: atOne,
    first: moving > 0n ? linearFactor(moving, goal) : 2n * FACTOR_DENOMINATOR
  })
  if (solution.stalled === undefined || on === "premium") return resultOf(solution)
  // the solve stopped where the factor no longer moved the total: how far the factor can take it
  const side: Beyond = solution.total * goal.denominator > goal.numerator ? "below" : "above"
  const limit = await coverageLimit(side)
  if (beyond(side === "below" ? limit.total : 0n, side === "above" ? limit.total : null) === undefined)
    return resultOf(solution)
  return resultOf(
    limit,
    side === "below"
      ? `even a factor of 0 on ${onWhat} leaves the total at ${money(kronerOfUnits(limit.total))} kr`
      : `no factor on ${onWhat} takes the total above ${money(kronerOfUnits(limit.total))} kr`
  )
}
