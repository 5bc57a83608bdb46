/**
 * The impact of a tariff change on a portfolio, accumulated case by case: each
 * priced case (its premium under the old and the new version, its segments, its
 * weight) is added as it streams past, and only totals, counts and the largest
 * movers are kept — memory does not grow with the portfolio. Partial results of
 * several workers merge exactly (integer sums, a total order on movers), so the
 * report does not depend on how the portfolio was split. Browser-safe: the
 * workbench page's web workers run it as the command's worker threads do.
 */
import { RatingWorksheet } from "@kasko/core/actuarial"
import { type CapBounds, RunningCapBounds } from "./CapBounds.js"
import { type CaseOutcome, type PricedCase, WEIGHT_SCALE } from "./CaseOutcome.js"
import { type BandPlan, bandIndex, bandLabels, bandPlanOf, DEFAULT_PERCENT_EDGES } from "./ChangeBands.js"
import { ExactSum } from "./ExactArithmetic.js"
import type { ImpactReport, Mover, SegmentRow, TotalsRow } from "./ImpactReport.js"
import {
  ageBandOf,
  priceBandOf,
  SEGMENT_DIMENSIONS,
  type SegmentDimension,
  segmentRank,
  vehicleTypeOf
} from "./ImpactSegments.js"
import { movedLines } from "./MovedLines.js"
import { MoverHeap } from "./MoverHeap.js"
import { type ParameterSegmentation, parameterSegmentOf, parameterSegmentRank } from "./ParameterSegments.js"
import { PremiumCaps } from "./PremiumCaps.js"
import { type ReasonTally, Rejections } from "./Rejections.js"
import { kronerOfUnits, percentChange, Totals, type TotalsState } from "./RunningTotals.js"

/** How an impact test counts the change: caps on each policy's change, a factor on every premium, movers, bands, segments. */
export interface ImpactOptions {
  /** The largest increase a policy may get, in per cent of its old premium (two decimals at most). */
  readonly cap_increase_percent?: number
  /** The largest decrease a policy may get, in per cent of its old premium (two decimals at most, ≤ 100). */
  readonly cap_decrease_percent?: number
  /**
   * Multiplies each new premium before it is capped (exact: numerator / denominator). The capped
   * total is all it changes: the target solver's passes use it to find the factor on the whole
   * premium that makes the capped book hit its target.
   */
  readonly premium_factor?: { readonly numerator: bigint; readonly denominator: bigint }
  /** How many of the largest increases and of the largest decreases to keep (default 10 each). */
  readonly top_movers?: number
  /** Ascending edges in per cent, 0 among them, at most two decimals (default DEFAULT_PERCENT_EDGES). */
  readonly percent_edges?: ReadonlyArray<number>
  /**
   * Parameters of products added as data to break the book down by, besides the report's own dimensions
   * (`runImpact` sets them from the products compared, `parameterSegmentationsOf`, unless given).
   */
  readonly parameter_segments?: ReadonlyArray<ParameterSegmentation>
}

/**
 * An accumulator's partial result as plain data: what a worker posts back (structured clone
 * carries bigints and arrays), and what `ImpactAccumulator.merge` takes.
 */
export interface ImpactState {
  readonly options: ImpactOptions
  readonly totals: TotalsState
  readonly capped_increases: number
  readonly capped_decreases: number
  readonly current: {
    readonly policies: number
    readonly current: bigint
    readonly old: bigint
    readonly differing: number
  }
  readonly segments: ReadonlyArray<readonly [SegmentDimension, ReadonlyArray<readonly [string, TotalsState]>]>
  /** By each of `options.parameter_segments`, by its name. */
  readonly parameter_segments: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, TotalsState]>]>
  readonly bands: ReadonlyArray<TotalsState>
  readonly increases: ReadonlyArray<Mover>
  readonly decreases: ReadonlyArray<Mover>
  readonly rejections: ReadonlyArray<readonly [string, ReasonTally]>
  readonly rejected: number
  readonly not_compared: ReadonlyArray<readonly [string, number]>
  /** With a cap set: how far the caps let the capped total move, whatever the factor (null without caps). */
  readonly cap_bounds: CapBounds | null
}

/**
 * Accumulates priced cases into an impact report: `add` each case's outcome as it is priced,
 * `merge` the partial results of other accumulators (workers) by their `state()`, then `finish`.
 */
export class ImpactAccumulator {
  private readonly totals = new Totals()
  private readonly segments = new Map<SegmentDimension, Map<string, Totals>>(
    SEGMENT_DIMENSIONS.map((dimension) => [dimension, new Map()])
  )
  private readonly parameterSegmentations: ReadonlyArray<ParameterSegmentation>
  private readonly parameterSegments: Map<string, Map<string, Totals>>
  private readonly bands: Array<Totals>
  private readonly bandPlan: BandPlan
  private readonly increases: MoverHeap
  private readonly decreases: MoverHeap
  private readonly rejections = new Rejections()
  private readonly notCompared = new Map<string, number>()
  private readonly current = { policies: 0, current: new ExactSum(), old: new ExactSum(), differing: 0 }
  private readonly caps: PremiumCaps
  private readonly capBounds: RunningCapBounds | undefined

  constructor(readonly options: ImpactOptions = {}) {
    this.parameterSegmentations = options.parameter_segments ?? []
    this.parameterSegments = new Map(
      this.parameterSegmentations.map((segmentation) => [segmentation.parameter, new Map()])
    )
    this.caps = new PremiumCaps(options)
    this.capBounds = this.caps.capping ? new RunningCapBounds(this.caps.increase !== undefined) : undefined
    this.bandPlan = bandPlanOf(options.percent_edges ?? DEFAULT_PERCENT_EDGES)
    this.bands = Array.from({ length: this.bandPlan.edges.length + 3 }, () => new Totals())
    const top = options.top_movers ?? 10
    if (!Number.isInteger(top) || top < 0) throw new Error(`top_movers must be a whole number, not ${top}`)
    this.increases = new MoverHeap(top)
    this.decreases = new MoverHeap(top)
  }

  /** Adds one case's outcome: priced, rejected (with its reasons) or not compared. */
  add(outcome: CaseOutcome): void {
    if (outcome.kind === "rejected") {
      this.rejections.add(outcome.line, outcome.reasons)
      return
    }
    if (outcome.kind === "not_compared") {
      this.notCompared.set(outcome.product_name, (this.notCompared.get(outcome.product_name) ?? 0) + 1)
      return
    }
    const before = outcome.old.annual_total_ore
    const after = outcome.new.annual_total_ore
    const weight = outcome.weight_units
    const capped = this.caps.capped(before, after)
    this.totals.add(weight, before, after, capped)
    this.capBounds?.add(weight, after, this.caps.floorOf(before) ?? 0, this.caps.ceilingOf(before))
    const facts = outcome.old.facts
    this.segment("product", facts.product_name).add(weight, before, after, capped)
    this.segment("variant", facts.variant).add(weight, before, after, capped)
    this.segment("feature", facts.feature).add(weight, before, after, capped)
    this.segment("vehicle_type", vehicleTypeOf(facts, outcome.parameters)).add(weight, before, after, capped)
    this.segment("driver_age_band", ageBandOf((facts["youngest_user_age"] ?? null) as number | null)).add(
      weight,
      before,
      after,
      capped
    )
    this.segment("vehicle_price_band", priceBandOf(RatingWorksheet.vehiclePriceOf(facts))).add(
      weight,
      before,
      after,
      capped
    )
    // a product without the parameter is not counted in its segments
    for (const segmentation of this.parameterSegmentations)
      if (Object.hasOwn(facts, segmentation.parameter))
        totalsAt(
          this.parameterSegments.get(segmentation.parameter)!,
          parameterSegmentOf(segmentation, facts[segmentation.parameter])
        ).add(weight, before, after, capped)
    this.bands[bandIndex(this.bandPlan, before, after)]!.add(weight, before, after, capped)
    if (outcome.current_ore !== undefined) {
      this.current.policies++
      this.current.current.addProduct(weight, outcome.current_ore)
      this.current.old.addProduct(weight, before)
      // premiums are charged in whole kroner: a current premium within the rounding of the old price agrees
      if (Math.abs(outcome.current_ore - before) >= 50) this.current.differing++
    }
    const change = after - before
    const heap = change > 0 ? this.increases : change < 0 ? this.decreases : undefined
    // the worksheets are read only for a case that will be kept
    if (heap?.admits(change, outcome.line)) heap.offer(moverOf(outcome, before, after))
  }

  /** Adds another accumulator's partial result; both must have been made with the same options. */
  merge(other: ImpactAccumulator | ImpactState): void {
    const state = other instanceof ImpactAccumulator ? other.state() : other
    this.totals.merge(state.totals)
    this.caps.cappedIncreases += state.capped_increases
    this.caps.cappedDecreases += state.capped_decreases
    this.current.policies += state.current.policies
    this.current.current.addExact(state.current.current)
    this.current.old.addExact(state.current.old)
    this.current.differing += state.current.differing
    for (const [dimension, rows] of state.segments)
      for (const [segment, totals] of rows) this.segment(dimension, segment).merge(totals)
    for (const [parameter, rows] of state.parameter_segments)
      for (const [segment, totals] of rows) totalsAt(this.parameterSegments.get(parameter)!, segment).merge(totals)
    state.bands.forEach((totals, index) => {
      this.bands[index]!.merge(totals)
    })
    for (const mover of state.increases) this.increases.offer(mover)
    for (const mover of state.decreases) this.decreases.offer(mover)
    this.rejections.merge(state.rejected, state.rejections)
    for (const [product, cases] of state.not_compared)
      this.notCompared.set(product, (this.notCompared.get(product) ?? 0) + cases)
    if (state.cap_bounds !== null) this.capBounds?.merge(state.cap_bounds)
  }

  /** The partial result as plain data (for `merge` in another thread). */
  state(): ImpactState {
    return {
      options: this.options,
      totals: this.totals.state(),
      capped_increases: this.caps.cappedIncreases,
      capped_decreases: this.caps.cappedDecreases,
      current: {
        policies: this.current.policies,
        current: this.current.current.value(),
        old: this.current.old.value(),
        differing: this.current.differing
      },
      segments: [...this.segments].map(
        ([dimension, rows]) =>
          [dimension, [...rows].map(([segment, totals]) => [segment, totals.state()] as const)] as const
      ),
      parameter_segments: [...this.parameterSegments].map(
        ([parameter, rows]) =>
          [parameter, [...rows].map(([segment, totals]) => [segment, totals.state()] as const)] as const
      ),
      bands: this.bands.map((totals) => totals.state()),
      increases: this.increases.ranked(),
      decreases: this.decreases.ranked(),
      rejections: this.rejections.state(),
      rejected: this.rejections.cases,
      not_compared: [...this.notCompared],
      cap_bounds: this.capBounds?.state() ?? null
    }
  }

  /** The report of everything added and merged so far. */
  finish(): ImpactReport {
    const { caps } = this
    // the change is the difference of the totals as printed, so the three always add up
    const change = (before: bigint, after: bigint) =>
      (Math.round(kronerOfUnits(after) * 100) - Math.round(kronerOfUnits(before) * 100)) / 100
    const row = (totals: TotalsState): TotalsRow => ({
      policies: totals.policies,
      affected: totals.affected,
      exposure: Number(totals.weight) / WEIGHT_SCALE,
      old_kroner: kronerOfUnits(totals.old),
      new_kroner: kronerOfUnits(totals.new),
      change_kroner: change(totals.old, totals.new),
      change_percent: percentChange(totals.old, totals.new),
      ...(caps.capping
        ? {
            capped_kroner: kronerOfUnits(totals.capped),
            capped_change_percent: percentChange(totals.old, totals.capped)
          }
        : {})
    })
    const totals = this.totals.state()
    const labels = bandLabels(this.bandPlan)
    const current = this.current
    return {
      totals: {
        ...row(totals),
        increased: totals.increased,
        decreased: totals.decreased,
        unchanged: totals.policies - totals.affected
      },
      caps: caps.capping
        ? {
            increase_percent: caps.increase === undefined ? null : caps.increase / 100,
            decrease_percent: caps.decrease === undefined ? null : caps.decrease / 100,
            capped_increases: caps.cappedIncreases,
            capped_decreases: caps.cappedDecreases
          }
        : null,
      current:
        current.policies === 0
          ? null
          : {
              policies: current.policies,
              current_kroner: kronerOfUnits(current.current.value()),
              old_kroner: kronerOfUnits(current.old.value()),
              differing: current.differing
            },
      segments: Object.fromEntries(
        SEGMENT_DIMENSIONS.map((dimension) => [
          dimension,
          [...this.segments.get(dimension)!]
            .sort(([a], [b]) => segmentRank(dimension, a) - segmentRank(dimension, b) || (a < b ? -1 : a > b ? 1 : 0))
            .map(([segment, segmentTotals]) => ({ segment, ...row(segmentTotals.state()) }))
        ])
      ) as unknown as Record<SegmentDimension, ReadonlyArray<SegmentRow>>,
      ...(this.parameterSegmentations.length === 0
        ? {}
        : {
            parameter_segments: this.parameterSegmentations.map((segmentation) => ({
              parameter: segmentation.parameter,
              title: segmentation.title,
              rows: [...this.parameterSegments.get(segmentation.parameter)!]
                .sort(
                  ([a], [b]) =>
                    parameterSegmentRank(segmentation, a) - parameterSegmentRank(segmentation, b) ||
                    (a < b ? -1 : a > b ? 1 : 0)
                )
                .map(([segment, segmentTotals]) => ({ segment, ...row(segmentTotals.state()) }))
            }))
          }),
      bands: this.bands
        .map((band, index) => ({
          band: labels[index]!.band,
          from_percent: labels[index]!.from,
          to_percent: labels[index]!.to,
          ...row(band.state())
        }))
        // the band of old premiums of zero is listed only when there is such a case
        .filter((band, index) => index !== this.bands.length - 1 || band.policies > 0),
      movers: { increases: this.increases.ranked(), decreases: this.decreases.ranked() },
      rejected: { cases: this.rejections.cases, reasons: this.rejections.report() },
      not_compared: [...this.notCompared]
        .map(([product_name, cases]) => ({ product_name, cases }))
        .sort((a, b) => (a.product_name < b.product_name ? -1 : 1))
    }
  }

  private segment(dimension: SegmentDimension, key: string): Totals {
    return totalsAt(this.segments.get(dimension)!, key)
  }
}

/** A segment's totals, made the first time it is met. */
const totalsAt = (rows: Map<string, Totals>, key: string): Totals => {
  let totals = rows.get(key)
  if (totals === undefined) {
    totals = new Totals()
    rows.set(key, totals)
  }
  return totals
}

const kroner = (ore: number): number => ore / 100

/** One of the largest movers: the case, its change and the worksheet lines that moved it. */
const moverOf = (outcome: PricedCase, before: number, after: number): Mover => ({
  line: outcome.line,
  policy_id: outcome.policy_id,
  product_name: outcome.old.facts.product_name,
  feature: outcome.old.facts.feature,
  parameters: outcome.parameters,
  old_kroner: kroner(before),
  new_kroner: kroner(after),
  change_kroner: kroner(after - before),
  change_percent: before === 0 ? null : Math.round(((after - before) / before) * 1_000_000) / 10_000,
  moved_lines: movedLines(outcome.old, outcome.new),
  change_ore: after - before
})
