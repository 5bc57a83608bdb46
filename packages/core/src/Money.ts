/**
 * Money is integer øre inside the engine; kroner appear only at the edge.
 * Exact rationals (bigint numerator/denominator) carry a premium through its
 * factors so it is rounded once, as the tariff's arithmetic requires.
 */

/** An exact non-negative amount of øre: numerator / denominator. */
export interface ExactOre {
  readonly numerator: bigint
  readonly denominator: bigint
}

export const exactOre = (ore: number): ExactOre => ({ numerator: BigInt(ore), denominator: 1n })

/** Multiplies by (100 + percent) / 100: a loading of `percent` per cent. */
export const applyPercent = (amount: ExactOre, percent: number): ExactOre => ({
  numerator: amount.numerator * BigInt(100 + percent),
  denominator: amount.denominator * 100n
})

/** Multiplies by basis points (1/10 000). */
export const applyBasisPoints = (amount: ExactOre, basisPoints: number): ExactOre => ({
  numerator: amount.numerator * BigInt(basisPoints),
  denominator: amount.denominator * 10_000n
})

/** Rounds half up to whole øre. */
export const roundHalfUp = (amount: ExactOre): number =>
  Number((2n * amount.numerator + amount.denominator) / (2n * amount.denominator))

/** Rounds up to whole øre. */
export const roundUp = (amount: ExactOre): number =>
  Number((amount.numerator + amount.denominator - 1n) / amount.denominator)

/** The exact value as a plain number, for display in a worksheet only. */
export const approximate = (amount: ExactOre): number => Number(amount.numerator) / Number(amount.denominator)

/** Whole kroner, rounded half up. */
export const kronerHalfUp = (ore: number): number => roundHalfUp({ numerator: BigInt(ore), denominator: 100n })

/** Whole kroner, rounded up. */
export const kronerUp = (amount: ExactOre): number =>
  roundUp({ numerator: amount.numerator, denominator: amount.denominator * 100n })

/** Kroner with two decimals, as the quote's `price.details` show them: 8400 → "84.00". */
export const formatKroner = (ore: number): string => {
  const sign = ore < 0 ? "-" : ""
  const absolute = Math.abs(ore)
  return `${sign}${Math.trunc(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}`
}

/** Whole kroner to øre. */
export const oreOfKroner = (kroner: number): number => Math.round(kroner * 100)
