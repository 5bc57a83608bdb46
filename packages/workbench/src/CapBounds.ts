/**
 * How far the caps let a capped total move, whatever a factor does to the new
 * premiums: exact sums and extremes over the policies, so workers' parts merge
 * exactly; the target solver reads from them when a target is out of reach.
 */
import { ExactSum } from "./ExactArithmetic.js"

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

/** a/b < c/d for non-negative fractions (b, d ≥ 0, 0 standing for infinity): in doubles when exact, else in bigints. */
const below = (a: number, b: number, c: number, d: number): boolean => {
  const [left, right] = [a * d, c * b]
  return Number.isSafeInteger(left) && Number.isSafeInteger(right)
    ? left < right
    : BigInt(a) * BigInt(d) < BigInt(c) * BigInt(b)
}

/** The running `CapBounds` of an accumulator with a cap set. */
export class RunningCapBounds {
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
