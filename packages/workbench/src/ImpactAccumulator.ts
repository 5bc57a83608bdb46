/**
 * The impact of a tariff change on a portfolio, accumulated case by case: each
 * priced case (its premium under the old and the new version, its segments, its
 * weight) is added as it streams past, and only totals, counts and the largest
 * movers are kept — memory does not grow with the portfolio. Partial results of
 * several workers merge exactly (integer sums, a total order on movers), so the
 * report does not depend on how the portfolio was split. Browser-safe: the
 * workbench page's web workers run it as the command's worker threads do.
 */
import { type Pricing, RatingWorksheet } from "@kasko/core/actuarial"

type PriceComputation = Pricing.PriceComputation

/** Weights carry at most four decimals: sums are kept in øre × WEIGHT_SCALE, exactly. */
export const WEIGHT_SCALE = 10_000

/** The segments the report breaks the portfolio down by, each read from the case's pricing facts. */
export const SEGMENT_DIMENSIONS = [
  "product",
  "variant",
  "feature",
  "vehicle_type",
  "driver_age_band",
  "vehicle_price_band"
] as const
export type SegmentDimension = (typeof SEGMENT_DIMENSIONS)[number]

/** Each segment dimension as the reports title it (the command's text and the workbench page). */
export const SEGMENT_TITLES: Readonly<Record<SegmentDimension, string>> = {
  product: "product",
  variant: "variant",
  feature: "feature",
  vehicle_type: "vehicle type",
  driver_age_band: "youngest driver's age",
  vehicle_price_band: "vehicle price (kr)"
}

/** The youngest driver's age bands: the reference tariff's loading bands, then decades of adulthood. */
export const DRIVER_AGE_BANDS: ReadonlyArray<{ readonly label: string; readonly up_to: number }> = [
  { label: "17–20", up_to: 20 },
  { label: "21–24", up_to: 24 },
  { label: "25–27", up_to: 27 },
  { label: "28–34", up_to: 34 },
  { label: "35–49", up_to: 49 },
  { label: "50–64", up_to: 64 },
  { label: "65–99", up_to: 99 }
]
const AGE_NOT_GIVEN = "not given"

/** Vehicle price bands in kroner: the reference tariff's kasko band ends at 300 000. */
export const VEHICLE_PRICE_BANDS: ReadonlyArray<{ readonly label: string; readonly up_to: number }> = [
  { label: "≤ 100 000", up_to: 100_000 },
  { label: "100 001–200 000", up_to: 200_000 },
  { label: "200 001–300 000", up_to: 300_000 },
  { label: "300 001–500 000", up_to: 500_000 },
  { label: "500 001–1 000 000", up_to: 1_000_000 },
  { label: "> 1 000 000", up_to: Number.POSITIVE_INFINITY }
]

/** The default edges (per cent) of the bands of change per policy: the shape an impact test shows. */
export const DEFAULT_PERCENT_EDGES: ReadonlyArray<number> = [-20, -10, -5, -2, 0, 2, 5, 10, 20]

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
}

/** A case priced under both versions: what an `impactPricer` gives for a valid row. */
export interface PricedCase {
  readonly kind: "priced"
  /** Where the case is in the portfolio: its line in the file, or its place in the store's listing. */
  readonly line: number
  readonly policy_id: string
  /** The weight (exposure) × WEIGHT_SCALE, an integer. */
  readonly weight_units: number
  /** The premium the portfolio says the policy pays now (øre), when it says. */
  readonly current_ore: number | undefined
  readonly parameters: Readonly<Record<string, string>>
  readonly old: PriceComputation
  readonly new: PriceComputation
}

/** A case that failed validation: every reason, each naming the column. */
export interface RejectedCase {
  readonly kind: "rejected"
  readonly line: number
  readonly policy_id: string
  readonly reasons: ReadonlyArray<string>
}

/** A valid case of a product that one of the two sides has no tariff for. */
export interface UncomparedCase {
  readonly kind: "not_compared"
  readonly line: number
  readonly policy_id: string
  readonly product_name: string
}

export type CaseOutcome = PricedCase | RejectedCase | UncomparedCase

/** A worksheet line whose amount the change moved. */
export interface MovedLine {
  /** The coverage, or `charge <name>`. */
  readonly item: string
  /** Null when the line is not there under that version. */
  readonly old_kroner: number | null
  readonly new_kroner: number | null
  /** How the worksheet explains the amount under each version. */
  readonly old_explanation: string | null
  readonly new_explanation: string | null
}

/** One of the largest movers, with the worksheet lines that moved it. */
export interface Mover {
  readonly line: number
  readonly policy_id: string
  readonly product_name: string
  readonly feature: string
  readonly parameters: Readonly<Record<string, string>>
  readonly old_kroner: number
  readonly new_kroner: number
  readonly change_kroner: number
  /** Null when the old premium was zero. */
  readonly change_percent: number | null
  readonly moved_lines: ReadonlyArray<MovedLine>
  /** The change in øre, for ranking: larger moves first, then the earlier line. */
  readonly change_ore: number
}

/** A row of totals: the whole portfolio, a segment or a band. */
export interface TotalsRow {
  readonly policies: number
  /** Policies whose premium the change moves. */
  readonly affected: number
  /** Σ weight. */
  readonly exposure: number
  /** Σ weight × premium, in kroner (two decimals). */
  readonly old_kroner: number
  readonly new_kroner: number
  readonly change_kroner: number
  /** Null when the old total is zero. */
  readonly change_percent: number | null
  /** Present when a cap is set: Σ weight × capped premium, and its change. */
  readonly capped_kroner?: number
  readonly capped_change_percent?: number | null
}

export interface SegmentRow extends TotalsRow {
  readonly segment: string
}

export interface BandRow extends TotalsRow {
  readonly band: string
  /** Null: no lower (upper) end. */
  readonly from_percent: number | null
  readonly to_percent: number | null
}

export interface RejectionReason {
  readonly reason: string
  readonly cases: number
  /** The first lines rejected for it (at most 20). */
  readonly lines: ReadonlyArray<number>
}

/** Everything an impact test reports. */
export interface ImpactReport {
  readonly totals: TotalsRow & {
    readonly increased: number
    readonly decreased: number
    readonly unchanged: number
  }
  readonly caps: {
    readonly increase_percent: number | null
    readonly decrease_percent: number | null
    /** Policies whose increase (decrease) the cap holds back. */
    readonly capped_increases: number
    readonly capped_decreases: number
  } | null
  /** What the portfolio says the policies pay now, beside the old version's re-rating of them. */
  readonly current: {
    readonly policies: number
    readonly current_kroner: number
    readonly old_kroner: number
    /** Policies whose current premium is not what the old version prices (to the krone). */
    readonly differing: number
  } | null
  readonly segments: Readonly<Record<SegmentDimension, ReadonlyArray<SegmentRow>>>
  readonly bands: ReadonlyArray<BandRow>
  readonly movers: { readonly increases: ReadonlyArray<Mover>; readonly decreases: ReadonlyArray<Mover> }
  readonly rejected: { readonly cases: number; readonly reasons: ReadonlyArray<RejectionReason> }
  readonly not_compared: ReadonlyArray<{ readonly product_name: string; readonly cases: number }>
}

/** A sum of integers kept exact past 2^53: a number while it is small, spilled into a bigint. */
class ExactSum {
  private small = 0
  private big = 0n
  add(amount: number): void {
    this.small += amount
    if (this.small > SPILL || this.small < -SPILL) {
      this.big += BigInt(this.small)
      this.small = 0
    }
  }
  /** Adds weight × amount, exactly. */
  addProduct(weight: number, amount: number): void {
    const product = weight * amount
    if (Number.isSafeInteger(product) && product <= MAX_ADDEND && product >= -MAX_ADDEND) this.add(product)
    else this.big += BigInt(weight) * BigInt(amount)
  }
  addExact(amount: bigint): void {
    this.big += amount
  }
  value(): bigint {
    return this.big + BigInt(this.small)
  }
}
// small stays below 2^51 and an addend below 2^52, so their sum is exact
const SPILL = 2 ** 51
const MAX_ADDEND = 2 ** 52

/** The running totals of a row. */
class Totals {
  policies = 0
  affected = 0
  increased = 0
  decreased = 0
  weight = new ExactSum()
  old = new ExactSum()
  new = new ExactSum()
  capped = new ExactSum()

  add(weight: number, before: number, after: number, capped: number): void {
    this.policies++
    if (after !== before) {
      this.affected++
      if (after > before) this.increased++
      else this.decreased++
    }
    this.weight.add(weight)
    this.old.addProduct(weight, before)
    this.new.addProduct(weight, after)
    this.capped.addProduct(weight, capped)
  }

  state(): TotalsState {
    return {
      policies: this.policies,
      affected: this.affected,
      increased: this.increased,
      decreased: this.decreased,
      weight: this.weight.value(),
      old: this.old.value(),
      new: this.new.value(),
      capped: this.capped.value()
    }
  }

  merge(other: TotalsState): void {
    this.policies += other.policies
    this.affected += other.affected
    this.increased += other.increased
    this.decreased += other.decreased
    this.weight.addExact(other.weight)
    this.old.addExact(other.old)
    this.new.addExact(other.new)
    this.capped.addExact(other.capped)
  }
}

interface TotalsState {
  readonly policies: number
  readonly affected: number
  readonly increased: number
  readonly decreased: number
  /** Σ weight units. */
  readonly weight: bigint
  /** Σ weight units × øre. */
  readonly old: bigint
  readonly new: bigint
  readonly capped: bigint
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
  readonly bands: ReadonlyArray<TotalsState>
  readonly increases: ReadonlyArray<Mover>
  readonly decreases: ReadonlyArray<Mover>
  readonly rejections: ReadonlyArray<readonly [string, { readonly cases: number; readonly lines: Array<number> }]>
  readonly rejected: number
  readonly not_compared: ReadonlyArray<readonly [string, number]>
  /** With a cap set: how far the caps let the capped total move, whatever the factor (null without caps). */
  readonly cap_bounds: CapBounds | null
}

/** An exact non-negative fraction; a denominator of 0 stands for infinity. */
export interface Fraction {
  readonly numerator: bigint
  readonly denominator: bigint
}

/**
 * What the caps make of the capped total, whatever a factor does to the new premiums: every capped
 * premium lies between its floor (old × (1 − decrease cap), 0 without one) and its ceiling (old × (1 +
 * increase cap)), each rounded half up to the øre as the capped premium is. Sums and extremes over the
 * policies, so workers' parts merge exactly. `floor` and `ceiling` are the caps' bounds of the total; the
 * rest says what a factor on the whole premium reaches, exactly, without re-pricing.
 */
export interface CapBounds {
  /** Σ weight × floor, in øre × WEIGHT_SCALE: no capped total is lower. */
  readonly floor: bigint
  /** Σ weight × ceiling; null without an increase cap (no capped total is higher). */
  readonly ceiling: bigint | null
  /**
   * The highest capped total a factor on the whole premium gives: the ceiling, but for policies the new
   * version prices at 0, which no factor moves off their floor; null without an increase cap (unbounded).
   */
  readonly premium_highest: bigint | null
  /**
   * The factor on the whole premium from which on every policy is at its highest (the largest
   * (2 × ceiling − 1) / (2 × new premium) of the policies a factor moves): the capped total is then
   * `premium_highest`. 0/1 when no policy moves.
   */
  readonly premium_highest_from: Fraction
  /**
   * The factor on the whole premium below which every policy is at its floor (the smallest
   * (2 × floor + 1) / (2 × new premium) of the policies a factor moves): the capped total is then
   * `floor`. 1/0 (infinity) when no policy moves.
   */
  readonly premium_floor_below: Fraction
}

const REJECTED_LINES_KEPT = 20

/** The band a change falls in, by exact integer comparison: index into the band list. */
interface BandPlan {
  /** Edges in basis points of a per cent (per cent × 100), ascending, 0 among them. */
  readonly edges: ReadonlyArray<number>
  readonly zeroEdge: number
}

const bandPlanOf = (edges: ReadonlyArray<number>): BandPlan => {
  const inHundredths = edges.map((edge) => Math.round(edge * 100))
  inHundredths.forEach((edge, index) => {
    if (Math.abs(edge - edges[index]! * 100) > 1e-6)
      throw new Error(`percent edge ${edges[index]} has more than two decimals`)
    if (index > 0 && edge <= inHundredths[index - 1]!) throw new Error("percent edges must rise strictly")
    if (edge <= -10_000) throw new Error(`percent edge ${edges[index]} is not above -100`)
  })
  const zeroEdge = inHundredths.indexOf(0)
  if (zeroEdge === -1) throw new Error("percent edges must include 0")
  return { edges: inHundredths, zeroEdge }
}

/**
 * Bands: 0 … edges.length are the intervals between the edges (below the first, between each two,
 * from the last up), with the interval starting at 0 open there; then "unchanged" (exactly 0), then
 * "no old premium" (a change of an old premium of zero has no per cent).
 */
const bandIndex = (plan: BandPlan, before: number, after: number): number => {
  const { edges } = plan
  if (after === before) return edges.length + 1
  if (before === 0) return edges.length + 2
  // change ≥ edge  ⇔  after × 10 000 ≥ before × (10 000 + edge): exact in safe integers
  const scaled = after * 10_000
  let index = 0
  while (index < edges.length && scaled >= before * (10_000 + edges[index]!)) index++
  return index
}

const percentLabel = (hundredths: number): string => {
  const sign = hundredths > 0 ? "+" : hundredths < 0 ? "−" : ""
  return `${sign}${Math.abs(hundredths) / 100} %`
}

/** Each band's label and ends: [from, to) per cent, a change of exactly 0 being "unchanged". */
const bandLabels = (plan: BandPlan): Array<{ band: string; from: number | null; to: number | null }> => {
  const { edges } = plan
  const bands = edges.map((edge, index): { band: string; from: number | null; to: number | null } =>
    index === 0
      ? { band: `under ${percentLabel(edge)}`, from: null, to: edge / 100 }
      : {
          band: `${percentLabel(edges[index - 1]!)} to ${percentLabel(edge)}`,
          from: edges[index - 1]! / 100,
          to: edge / 100
        }
  )
  bands.push({ band: `${percentLabel(edges.at(-1)!)} and over`, from: edges.at(-1)! / 100, to: null })
  bands.push({ band: "unchanged", from: 0, to: 0 })
  bands.push({ band: "no old premium", from: null, to: null })
  return bands
}

const ageBandOf = (age: number | null): string => {
  if (age === null) return AGE_NOT_GIVEN
  for (const band of DRIVER_AGE_BANDS) if (age <= band.up_to) return band.label
  return DRIVER_AGE_BANDS.at(-1)!.label
}

const priceBandOf = (price: number): string => {
  for (const band of VEHICLE_PRICE_BANDS) if (price <= band.up_to) return band.label
  return VEHICLE_PRICE_BANDS.at(-1)!.label
}

/** The order segments are listed in: bands in their order, named values as the catalogue lists them. */
const SEGMENT_ORDER: Readonly<Record<SegmentDimension, ReadonlyArray<string>>> = {
  product: ["insurance-car-leasing", "insurance-car-standalone"],
  variant: ["standard", "extended"],
  feature: ["standard", "premium"],
  vehicle_type: ["personbil", "varevogn"],
  driver_age_band: [...DRIVER_AGE_BANDS.map((band) => band.label), AGE_NOT_GIVEN],
  vehicle_price_band: VEHICLE_PRICE_BANDS.map((band) => band.label)
}

const segmentRank = (dimension: SegmentDimension, segment: string): number => {
  const index = SEGMENT_ORDER[dimension].indexOf(segment)
  return index === -1 ? SEGMENT_ORDER[dimension].length : index
}

/** Half-up division of non-negative integers. */
const halfUp = (numerator: number, denominator: number): number => {
  const quotient = Math.floor(numerator / denominator)
  return 2 * (numerator - quotient * denominator) >= denominator ? quotient + 1 : quotient
}

const halfUpBig = (numerator: bigint, denominator: bigint): bigint =>
  numerator >= 0n
    ? (2n * numerator + denominator) / (2n * denominator)
    : -((-2n * numerator + denominator) / (2n * denominator))

/** Whole kroner with two decimals from a sum in øre × WEIGHT_SCALE, rounded half up to the øre. */
/** Kroner as the reports print them: two decimals, thousands apart, a true minus sign. */
export const money = (kroner: number): string => {
  const [whole, fraction] = Math.abs(kroner).toFixed(2).split(".") as [string, string]
  return `${kroner < 0 ? "−" : ""}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, " ")}.${fraction}`
}

export const kronerOfUnits = (units: bigint): number => Number(halfUpBig(units, BigInt(WEIGHT_SCALE))) / 100

/** The change in per cent, four decimals, or null from zero. */
export const percentChange = (before: bigint, after: bigint): number | null =>
  before === 0n ? null : Number(halfUpBig((after - before) * 1_000_000n, before)) / 10_000

/** Ranks movers: the larger move first, then the earlier line — a total order, so merges are exact. */
const outranks = (a: Mover, b: Mover): boolean =>
  Math.abs(a.change_ore) !== Math.abs(b.change_ore) ? Math.abs(a.change_ore) > Math.abs(b.change_ore) : a.line < b.line

/** The top N movers of one direction, as a binary min-heap on `outranks` (its root the weakest kept). */
class MoverHeap {
  readonly entries: Array<Mover> = []
  constructor(private readonly size: number) {}

  /** Whether a mover of this change at this line would be kept. */
  admits(changeOre: number, line: number): boolean {
    if (this.size === 0) return false
    if (this.entries.length < this.size) return true
    const weakest = this.entries[0]!
    return Math.abs(changeOre) !== Math.abs(weakest.change_ore)
      ? Math.abs(changeOre) > Math.abs(weakest.change_ore)
      : line < weakest.line
  }

  offer(mover: Mover): void {
    if (!this.admits(mover.change_ore, mover.line)) return
    const { entries } = this
    if (entries.length < this.size) {
      entries.push(mover)
      this.siftUp(entries.length - 1)
    } else {
      entries[0] = mover
      this.siftDown(0)
    }
  }

  ranked(): Array<Mover> {
    return [...this.entries].sort((a, b) => (outranks(a, b) ? -1 : outranks(b, a) ? 1 : 0))
  }

  private siftUp(start: number): void {
    const { entries } = this
    let index = start
    while (index > 0) {
      const parent = (index - 1) >> 1
      if (!outranks(entries[parent]!, entries[index]!)) break
      ;[entries[parent], entries[index]] = [entries[index]!, entries[parent]!]
      index = parent
    }
  }

  private siftDown(start: number): void {
    const { entries } = this
    let index = start
    for (;;) {
      const left = 2 * index + 1
      const right = left + 1
      let weakest = index
      if (left < entries.length && outranks(entries[weakest]!, entries[left]!)) weakest = left
      if (right < entries.length && outranks(entries[weakest]!, entries[right]!)) weakest = right
      if (weakest === index) return
      ;[entries[weakest], entries[index]] = [entries[index]!, entries[weakest]!]
      index = weakest
    }
  }
}

const kroner = (ore: number): number => ore / 100

const describeCoverageLine = (line: RatingWorksheet.RatingWorksheet["coverage_lines"][number]): string =>
  [
    line.base_description,
    ...line.loadings.map((loading) => `${loading.loading} ${loading.percent >= 0 ? "+" : ""}${loading.percent} %`)
  ].join("; ")

/** The worksheet lines (coverages, then charges) whose amounts differ between two prices of a case. */
export const movedLines = (before: PriceComputation, after: PriceComputation): Array<MovedLine> => {
  const [oldSheet, newSheet] = [RatingWorksheet.worksheetOf(before), RatingWorksheet.worksheetOf(after)]
  const moved: Array<MovedLine> = []
  const coverages = [...new Set([...oldSheet.coverage_lines, ...newSheet.coverage_lines].map((line) => line.coverage))]
  for (const coverage of coverages) {
    const was = oldSheet.coverage_lines.find((line) => line.coverage === coverage)
    const is = newSheet.coverage_lines.find((line) => line.coverage === coverage)
    if (was?.premium_ore === is?.premium_ore) continue
    moved.push({
      item: coverage,
      old_kroner: was === undefined ? null : kroner(was.premium_ore),
      new_kroner: is === undefined ? null : kroner(is.premium_ore),
      old_explanation: was === undefined ? null : describeCoverageLine(was),
      new_explanation: is === undefined ? null : describeCoverageLine(is)
    })
  }
  const charges = [...new Set([...oldSheet.charge_lines, ...newSheet.charge_lines].map((line) => line.charge))]
  for (const charge of charges) {
    const was = oldSheet.charge_lines.find((line) => line.charge === charge)
    const is = newSheet.charge_lines.find((line) => line.charge === charge)
    if (was?.amount_ore === is?.amount_ore) continue
    moved.push({
      item: `charge ${charge}`,
      old_kroner: was === undefined ? null : kroner(was.amount_ore),
      new_kroner: is === undefined ? null : kroner(is.amount_ore),
      old_explanation: was?.description ?? null,
      new_explanation: is?.description ?? null
    })
  }
  return moved
}

/** a/b < c/d for non-negative fractions (b, d ≥ 0, 0 standing for infinity): in doubles when exact, else in bigints. */
const below = (a: number, b: number, c: number, d: number): boolean => {
  const [left, right] = [a * d, c * b]
  return Number.isSafeInteger(left) && Number.isSafeInteger(right)
    ? left < right
    : BigInt(a) * BigInt(d) < BigInt(c) * BigInt(b)
}

/** The running `CapBounds` of an accumulator with a cap set. */
class RunningCapBounds {
  readonly floor = new ExactSum()
  readonly ceiling = new ExactSum()
  readonly highest = new ExactSum()
  /** A policy a factor raises without end (no increase cap): the highest total is unbounded. */
  unbounded = false
  // the fractions as pairs of safe integers: 2 × premium ± 1 over 2 × premium
  highestFrom = { numerator: 0, denominator: 1 }
  floorBelow = { numerator: 1, denominator: 0 }
  private readonly mergedHighestFrom: Array<Fraction> = []
  private readonly mergedFloorBelow: Array<Fraction> = []

  constructor(private readonly capped: boolean) {}

  /** A policy of this weight, new premium, floor and ceiling (undefined: no increase cap). */
  add(weight: number, after: number, floor: number, ceiling: number | undefined): void {
    this.floor.addProduct(weight, floor)
    if (ceiling !== undefined) this.ceiling.addProduct(weight, ceiling)
    // a policy priced at 0 stays at its floor whatever the factor
    const highest = after === 0 ? floor : ceiling
    if (highest === undefined) {
      if (weight > 0) this.unbounded = true
    } else this.highest.addProduct(weight, highest)
    if (weight === 0 || highest === floor) return
    // round(after × f) ≥ ceiling ⇔ f ≥ (2 × ceiling − 1) / (2 × after); round(after × f) ≤ floor ⇔ f < (2 × floor + 1) / (2 × after)
    if (
      highest !== undefined &&
      below(this.highestFrom.numerator, this.highestFrom.denominator, 2 * highest - 1, 2 * after)
    )
      this.highestFrom = { numerator: 2 * highest - 1, denominator: 2 * after }
    if (below(2 * floor + 1, 2 * after, this.floorBelow.numerator, this.floorBelow.denominator))
      this.floorBelow = { numerator: 2 * floor + 1, denominator: 2 * after }
  }

  merge(other: CapBounds): void {
    this.floor.addExact(other.floor)
    if (other.ceiling !== null) this.ceiling.addExact(other.ceiling)
    if (other.premium_highest === null) this.unbounded = true
    else this.highest.addExact(other.premium_highest)
    this.mergedHighestFrom.push(other.premium_highest_from)
    this.mergedFloorBelow.push(other.premium_floor_below)
  }

  state(): CapBounds {
    const bigFraction = (fraction: { numerator: number; denominator: number }): Fraction => ({
      numerator: BigInt(fraction.numerator),
      denominator: BigInt(fraction.denominator)
    })
    const less = (a: Fraction, b: Fraction) => a.numerator * b.denominator < b.numerator * a.denominator
    return {
      floor: this.floor.value(),
      ceiling: this.capped ? this.ceiling.value() : null,
      premium_highest: this.unbounded ? null : this.highest.value(),
      premium_highest_from: this.mergedHighestFrom.reduce(
        (largest, fraction) => (less(largest, fraction) ? fraction : largest),
        bigFraction(this.highestFrom)
      ),
      premium_floor_below: this.mergedFloorBelow.reduce(
        (smallest, fraction) => (less(fraction, smallest) ? fraction : smallest),
        bigFraction(this.floorBelow)
      )
    }
  }
}

const capBasisPoints = (percent: number | undefined, name: string, maximum: number): number | undefined => {
  if (percent === undefined) return undefined
  const basisPoints = Math.round(percent * 100)
  if (!(percent >= 0 && percent <= maximum) || Math.abs(basisPoints - percent * 100) > 1e-6)
    throw new Error(`${name} must be a per cent from 0 to ${maximum} with at most two decimals, not ${percent}`)
  return basisPoints
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
  private readonly bands: Array<Totals>
  private readonly bandPlan: BandPlan
  private readonly increases: MoverHeap
  private readonly decreases: MoverHeap
  private readonly rejections = new Map<string, { cases: number; lines: Array<number> }>()
  private readonly notCompared = new Map<string, number>()
  private rejected = 0
  private cappedIncreases = 0
  private cappedDecreases = 0
  private readonly current = { policies: 0, current: new ExactSum(), old: new ExactSum(), differing: 0 }
  private readonly capIncrease: number | undefined
  private readonly capDecrease: number | undefined
  private readonly factor: { readonly numerator: bigint; readonly denominator: bigint } | undefined
  private readonly capBounds: RunningCapBounds | undefined

  constructor(readonly options: ImpactOptions = {}) {
    this.capIncrease = capBasisPoints(options.cap_increase_percent, "cap_increase_percent", 1_000_000)
    this.capDecrease = capBasisPoints(options.cap_decrease_percent, "cap_decrease_percent", 100)
    const factor = options.premium_factor
    if (factor !== undefined && (factor.denominator <= 0n || factor.numerator < 0n))
      throw new Error("premium_factor must be a non-negative fraction")
    this.factor = factor !== undefined && factor.numerator !== factor.denominator ? factor : undefined
    this.capBounds =
      this.capIncrease !== undefined || this.capDecrease !== undefined
        ? new RunningCapBounds(this.capIncrease !== undefined)
        : undefined
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
      this.addRejected(outcome)
      return
    }
    if (outcome.kind === "not_compared") {
      this.notCompared.set(outcome.product_name, (this.notCompared.get(outcome.product_name) ?? 0) + 1)
      return
    }
    const before = outcome.old.annual_total_ore
    const after = outcome.new.annual_total_ore
    const weight = outcome.weight_units
    const capped = this.cappedPremium(before, after)
    this.totals.add(weight, before, after, capped)
    this.capBounds?.add(weight, after, this.floorOf(before) ?? 0, this.ceilingOf(before))
    const facts = outcome.old.facts
    this.segment("product", facts.product_name).add(weight, before, after, capped)
    this.segment("variant", facts.variant).add(weight, before, after, capped)
    this.segment("feature", facts.feature).add(weight, before, after, capped)
    this.segment("vehicle_type", facts.vehicle_type).add(weight, before, after, capped)
    this.segment("driver_age_band", ageBandOf(facts.youngest_driver_age)).add(weight, before, after, capped)
    this.segment("vehicle_price_band", priceBandOf(facts.vehicle_price)).add(weight, before, after, capped)
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
    if (heap?.admits(change, outcome.line)) heap.offer(this.moverOf(outcome, before, after))
  }

  /** Adds another accumulator's partial result; both must have been made with the same options. */
  merge(other: ImpactAccumulator | ImpactState): void {
    const state = other instanceof ImpactAccumulator ? other.state() : other
    this.totals.merge(state.totals)
    this.cappedIncreases += state.capped_increases
    this.cappedDecreases += state.capped_decreases
    this.current.policies += state.current.policies
    this.current.current.addExact(state.current.current)
    this.current.old.addExact(state.current.old)
    this.current.differing += state.current.differing
    for (const [dimension, rows] of state.segments)
      for (const [segment, totals] of rows) this.segment(dimension, segment).merge(totals)
    state.bands.forEach((totals, index) => {
      this.bands[index]!.merge(totals)
    })
    for (const mover of state.increases) this.increases.offer(mover)
    for (const mover of state.decreases) this.decreases.offer(mover)
    for (const [reason, entry] of state.rejections) this.addReason(reason, entry.cases, entry.lines)
    this.rejected += state.rejected
    for (const [product, cases] of state.not_compared)
      this.notCompared.set(product, (this.notCompared.get(product) ?? 0) + cases)
    if (state.cap_bounds !== null) this.capBounds?.merge(state.cap_bounds)
  }

  /** The partial result as plain data (for `merge` in another thread). */
  state(): ImpactState {
    return {
      options: this.options,
      totals: this.totals.state(),
      capped_increases: this.cappedIncreases,
      capped_decreases: this.cappedDecreases,
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
      bands: this.bands.map((totals) => totals.state()),
      increases: this.increases.ranked(),
      decreases: this.decreases.ranked(),
      rejections: [...this.rejections].map(
        ([reason, entry]) => [reason, { ...entry, lines: [...entry.lines] }] as const
      ),
      rejected: this.rejected,
      not_compared: [...this.notCompared],
      cap_bounds: this.capBounds?.state() ?? null
    }
  }

  /** The report of everything added and merged so far. */
  finish(): ImpactReport {
    const capping = this.capIncrease !== undefined || this.capDecrease !== undefined
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
      ...(capping
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
      caps: capping
        ? {
            increase_percent: this.capIncrease === undefined ? null : this.capIncrease / 100,
            decrease_percent: this.capDecrease === undefined ? null : this.capDecrease / 100,
            capped_increases: this.cappedIncreases,
            capped_decreases: this.cappedDecreases
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
      rejected: {
        cases: this.rejected,
        reasons: [...this.rejections]
          .map(([reason, entry]) => ({ reason, cases: entry.cases, lines: [...entry.lines].sort((a, b) => a - b) }))
          .sort((a, b) => b.cases - a.cases || (a.reason < b.reason ? -1 : 1))
      },
      not_compared: [...this.notCompared]
        .map(([product_name, cases]) => ({ product_name, cases }))
        .sort((a, b) => (a.product_name < b.product_name ? -1 : 1))
    }
  }

  private segment(dimension: SegmentDimension, key: string): Totals {
    const rows = this.segments.get(dimension)!
    let totals = rows.get(key)
    if (totals === undefined) {
      totals = new Totals()
      rows.set(key, totals)
    }
    return totals
  }

  /** The new premium (× the premium factor) held within the caps around the old one, half up to the øre. */
  private cappedPremium(before: number, after: number): number {
    let proposed = after
    if (this.factor !== undefined)
      proposed = Number(halfUpBig(BigInt(after) * this.factor.numerator, this.factor.denominator))
    const ceiling = this.ceilingOf(before)
    if (ceiling !== undefined && proposed > ceiling) {
      this.cappedIncreases++
      return ceiling
    }
    const floor = this.floorOf(before)
    if (floor !== undefined && proposed < floor) {
      this.cappedDecreases++
      return floor
    }
    return proposed
  }

  /** The most a capped premium may be: the old one and the increase cap, half up to the øre. */
  private ceilingOf(before: number): number | undefined {
    return this.capIncrease === undefined ? undefined : halfUp(before * (10_000 + this.capIncrease), 10_000)
  }

  /** The least a capped premium may be: the old one less the decrease cap, half up to the øre. */
  private floorOf(before: number): number | undefined {
    return this.capDecrease === undefined ? undefined : halfUp(before * (10_000 - this.capDecrease), 10_000)
  }

  private addRejected(outcome: RejectedCase): void {
    this.rejected++
    for (const reason of outcome.reasons) this.addReason(reason, 1, [outcome.line])
  }

  private addReason(reason: string, cases: number, lines: ReadonlyArray<number>): void {
    let entry = this.rejections.get(reason)
    if (entry === undefined) {
      entry = { cases: 0, lines: [] }
      this.rejections.set(reason, entry)
    }
    entry.cases += cases
    // keep the earliest lines, whatever order the workers' parts arrive in
    entry.lines.push(...lines)
    if (entry.lines.length > REJECTED_LINES_KEPT) {
      entry.lines.sort((a, b) => a - b)
      entry.lines.length = REJECTED_LINES_KEPT
    }
  }

  private moverOf(outcome: PricedCase, before: number, after: number): Mover {
    return {
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
    }
  }
}
