/**
 * The caps of an impact test: how far a policy's new premium (scaled by the
 * premium factor) may move from its old one, and how many policies each cap
 * holds back.
 */
import { halfUp, halfUpBig } from "./ExactArithmetic.js"

/** The caps and the factor, as `ImpactOptions` give them. */
export interface CapOptions {
  readonly cap_increase_percent?: number
  readonly cap_decrease_percent?: number
  readonly premium_factor?: { readonly numerator: bigint; readonly denominator: bigint }
}

const capBasisPoints = (percent: number | undefined, name: string, maximum: number): number | undefined => {
  if (percent === undefined) return undefined
  const basisPoints = Math.round(percent * 100)
  if (!(percent >= 0 && percent <= maximum) || Math.abs(basisPoints - percent * 100) > 1e-6)
    throw new Error(`${name} must be a per cent from 0 to ${maximum} with at most two decimals, not ${percent}`)
  return basisPoints
}

/** Each policy's capped premium, counting the increases and decreases the caps hold back. */
export class PremiumCaps {
  /** The caps in basis points of a per cent; undefined: no cap that way. */
  readonly increase: number | undefined
  readonly decrease: number | undefined
  /** Whether either cap is set. */
  readonly capping: boolean
  private readonly factor: { readonly numerator: bigint; readonly denominator: bigint } | undefined
  cappedIncreases = 0
  cappedDecreases = 0

  /** Throws when a cap is not a per cent with two decimals at most, or the factor is negative. */
  constructor(options: CapOptions) {
    this.increase = capBasisPoints(options.cap_increase_percent, "cap_increase_percent", 1_000_000)
    this.decrease = capBasisPoints(options.cap_decrease_percent, "cap_decrease_percent", 100)
    this.capping = this.increase !== undefined || this.decrease !== undefined
    const factor = options.premium_factor
    if (factor !== undefined && (factor.denominator <= 0n || factor.numerator < 0n))
      throw new Error("premium_factor must be a non-negative fraction")
    this.factor = factor !== undefined && factor.numerator !== factor.denominator ? factor : undefined
  }

  /** The new premium (× the premium factor) held within the caps around the old one, half up to the øre. */
  capped(before: number, after: number): number {
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
  ceilingOf(before: number): number | undefined {
    return this.increase === undefined ? undefined : halfUp(before * (10_000 + this.increase), 10_000)
  }

  /** The least a capped premium may be: the old one less the decrease cap, half up to the øre. */
  floorOf(before: number): number | undefined {
    return this.decrease === undefined ? undefined : halfUp(before * (10_000 - this.decrease), 10_000)
  }
}
