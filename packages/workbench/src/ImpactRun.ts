/**
 * An impact test from start to end, whoever prices: one pass over the book
 * gives the report; a target adds the passes that solve for its factor. A pass
 * is the caller's (`runPass`): the command runs it on worker threads over a
 * file or the store, the workbench page on web workers over a file in the
 * browser — each returns the accumulator its workers' states merged into.
 * Browser-safe.
 */
import {
  type ImpactAccumulator,
  type ImpactOptions,
  type ImpactReport,
  kronerOfUnits,
  percentChange,
  WEIGHT_SCALE
} from "./ImpactAccumulator.js"
import { comparedProducts, type TariffComparison } from "./ImpactPricing.js"
import {
  FACTOR_DENOMINATOR,
  factorText,
  linearFactor,
  solveMonotone,
  targetTotal,
  type FactorSolution
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
  /** The factor, an exact decimal. */
  readonly factor: string
  readonly old_kroner: number
  readonly target_kroner: number
  /** The total the factor gives (the capped total when caps are set). */
  readonly achieved_kroner: number
  readonly achieved_change_percent: number | null
  readonly difference_kroner: number
  readonly within_one_krone: boolean
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
  const main = await runPass({ impact })
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
  return { ...result, target: await solveTarget(main, impact, target, on, runPass) }
}

const solveTarget = async (
  main: ImpactAccumulator,
  impact: ImpactOptions,
  target: ImpactTarget,
  on: string,
  runPass: RunPass
): Promise<TargetResult> => {
  const totals = main.state().totals
  const capped = impact.cap_increase_percent !== undefined || impact.cap_decrease_percent !== undefined
  const goal = targetTotal(totals.old, target.percent)
  const quiet = { ...impact, top_movers: 0 }
  // the totals of each pass, by factor: the one kept is read back for the other total
  const passes = new Map<bigint, { readonly new: bigint; readonly capped: bigint }>()
  // a factor on the whole premium lands in the capped total (the accumulator applies it there, caps or not)
  const solved = (totals: { readonly new: bigint; readonly capped: bigint }) =>
    on === "premium" || capped ? totals.capped : totals.new
  const evaluate = async (pass: ImpactPass, numerator: bigint) => {
    const state = (await runPass(pass)).state().totals
    passes.set(numerator, { new: state.new, capped: state.capped })
    return solved(state)
  }
  // Even uncapped, the linear factor (target ÷ new total) is only a first guess: each premium × the
  // factor is rounded to the øre policy by policy, and those roundings add up on a large book.
  const solution: FactorSolution = await solveMonotone({
    target: goal,
    tolerance: ONE_KRONE,
    evaluate: (numerator) =>
      evaluate(
        on === "premium"
          ? { impact: { ...quiet, premium_factor: { numerator, denominator: FACTOR_DENOMINATOR } } }
          : { impact: quiet, scaling: { coverage: on, numerator } },
        numerator
      ),
    known: { numerator: FACTOR_DENOMINATOR, total: solved(totals) },
    first: linearFactor(on === "premium" ? totals.new : solved(totals), goal)
  })
  // the uncapped total with the factor: linear on the whole premium (the accumulator keeps no uncapped × factor total)
  const uncapped = (numerator: bigint) =>
    on === "premium"
      ? (totals.new * numerator + FACTOR_DENOMINATOR / 2n) / FACTOR_DENOMINATOR
      : (passes.get(numerator)?.new ?? totals.new)
  const wanted = (goal.numerator + goal.denominator / 2n) / goal.denominator
  const difference = solution.total - wanted
  return {
    on,
    target_percent: target.percent,
    applies_to: capped ? "capped premium" : "premium",
    factor: factorText(solution.numerator),
    old_kroner: kronerOfUnits(totals.old),
    target_kroner: kronerOfUnits(wanted),
    achieved_kroner: kronerOfUnits(solution.total),
    achieved_change_percent: percentChange(totals.old, solution.total),
    difference_kroner: kronerOfUnits(difference),
    within_one_krone: (difference < 0n ? -difference : difference) <= ONE_KRONE,
    passes: solution.passes,
    ...(capped ? { uncapped_kroner: kronerOfUnits(uncapped(solution.numerator)) } : {})
  }
}
