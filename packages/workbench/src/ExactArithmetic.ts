/** Integer arithmetic that stays exact past 2^53: sums of products, half-up division. */

/** A sum of integers kept exact past 2^53: a number while it is small, spilled into a bigint. */
export class ExactSum {
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

/** Half-up division of non-negative integers. */
export const halfUp = (numerator: number, denominator: number): number => {
  const quotient = Math.floor(numerator / denominator)
  return 2 * (numerator - quotient * denominator) >= denominator ? quotient + 1 : quotient
}

/** Half-up division of integers, a negative quotient rounded half away from zero. */
export const halfUpBig = (numerator: bigint, denominator: bigint): bigint =>
  numerator >= 0n
    ? (2n * numerator + denominator) / (2n * denominator)
    : -((-2n * numerator + denominator) / (2n * denominator))
