/**
 * The running totals of a row of an impact report (the whole portfolio, a
 * segment, a band), exact sums that merge across workers, and how a sum
 * prints: kroner and per cent.
 */
import { WEIGHT_SCALE } from "./CaseOutcome.js"
import { ExactSum, halfUpBig } from "./ExactArithmetic.js"

/** The running totals of a row. */
export class Totals {
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

/** A row's totals as plain data, as workers post them. */
export interface TotalsState {
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

/** Whole kroner with two decimals from a sum in øre × WEIGHT_SCALE, rounded half up to the øre. */
export const kronerOfUnits = (units: bigint): number => Number(halfUpBig(units, BigInt(WEIGHT_SCALE))) / 100

/** The change in per cent, four decimals, or null from zero. */
export const percentChange = (before: bigint, after: bigint): number | null =>
  before === 0n ? null : Number(halfUpBig((after - before) * 1_000_000n, before)) / 10_000
