/**
 * Money is integer øre inside the engine; kroner appear only at the edge.
 * Exact rationals carry a premium through its factors so it is rounded once,
 * as the tariff's arithmetic requires. They are safe integers while they fit
 * (fast) and bigint beyond (exact either way).
 * @module
 */

type Whole = number | bigint

/** An exact non-negative amount of øre: numerator / denominator. */
export interface ExactOre {
  readonly numerator: Whole
  readonly denominator: Whole
}

const multiply = (a: Whole, b: Whole): Whole => {
  if (typeof a === "number" && typeof b === "number") {
    const product = a * b
    if (Number.isSafeInteger(product)) return product
  }
  return BigInt(a) * BigInt(b)
}

/** a + b, for the sums of band portions. */
export const add = (a: Whole, b: Whole): Whole => {
  if (typeof a === "number" && typeof b === "number") {
    const sum = a + b
    if (Number.isSafeInteger(sum)) return sum
  }
  return BigInt(a) + BigInt(b)
}

/** a × b, exactly: a safe integer while the product is one, a bigint beyond. */
export const times = multiply

/** A whole number of øre as an exact amount, to apply loadings and shares to. */
export const exactOre = (ore: number): ExactOre => ({ numerator: ore, denominator: 1 })

/** Multiplies by (100 + percent) / 100: a loading of `percent` per cent. */
export const applyPercent = (amount: ExactOre, percent: number): ExactOre => ({
  numerator: multiply(amount.numerator, 100 + percent),
  denominator: multiply(amount.denominator, 100)
})

/** Multiplies by basis points (1/10 000). */
export const applyBasisPoints = (amount: ExactOre, basisPoints: number): ExactOre => ({
  numerator: multiply(amount.numerator, basisPoints),
  denominator: multiply(amount.denominator, 10_000)
})

/** a × b exactly. */
export const multiplyExact = (a: ExactOre, b: ExactOre): ExactOre => ({
  numerator: multiply(a.numerator, b.numerator),
  denominator: multiply(a.denominator, b.denominator)
})

/** ⌊n / d⌋ and the remainder, exactly, for safe non-negative integers. */
const divide = (numerator: number, denominator: number): [number, number] => {
  let quotient = Math.floor(numerator / denominator)
  let remainder = numerator - quotient * denominator
  // the float division can land one off for large operands
  if (remainder < 0) {
    quotient -= 1
    remainder += denominator
  } else if (remainder >= denominator) {
    quotient += 1
    remainder -= denominator
  }
  return [quotient, remainder]
}

/** Rounds half up to whole øre. */
export const roundHalfUp = (amount: ExactOre): number => {
  const { numerator, denominator } = amount
  if (typeof numerator === "number" && typeof denominator === "number") {
    const [quotient, remainder] = divide(numerator, denominator)
    return 2 * remainder >= denominator ? quotient + 1 : quotient
  }
  const n = BigInt(numerator)
  const d = BigInt(denominator)
  return Number((2n * n + d) / (2n * d))
}

/** Rounds up to whole øre. */
export const roundUp = (amount: ExactOre): number => {
  const { numerator, denominator } = amount
  if (typeof numerator === "number" && typeof denominator === "number") {
    const [quotient, remainder] = divide(numerator, denominator)
    return remainder > 0 ? quotient + 1 : quotient
  }
  const n = BigInt(numerator)
  const d = BigInt(denominator)
  return Number((n + d - 1n) / d)
}

/** The exact value as a plain number, for display in a worksheet only. */
export const approximate = (amount: ExactOre): number => Number(amount.numerator) / Number(amount.denominator)

/** Whole kroner, rounded half up. */
export const kronerHalfUp = (ore: number): number => roundHalfUp({ numerator: ore, denominator: 100 })

/** Whole kroner, rounded up. */
export const kronerUp = (amount: ExactOre): number =>
  roundUp({ numerator: amount.numerator, denominator: multiply(amount.denominator, 100) })

/** How `formatKroner` writes an amount; by default as the wire and a CSV cell do: "-1234.50". */
export interface KronerStyle {
  /** Put between each three digits of the whole kroner: " " where people read figures, "." in Danish, "," in English. */
  readonly thousands?: " " | "." | ","
  /** Between the kroner and the decimals: "." by default, "," in Danish. */
  readonly decimal?: "." | ","
  /** The sign below zero: "−" (U+2212) in typeset reports; "-" by default. */
  readonly minus?: "-" | "−"
  /**
   * 2 (to the øre) by default; 0 rounds half up to whole kroner; 4 shows what an exact amount has of
   * hundredths of an øre, and at least two decimals ("12.345", "12.30").
   */
  readonly decimals?: 0 | 2 | 4
}

/** Kroner as reports and the workbench's pages print them: "−1 234 567.80". */
export const PRINTED: KronerStyle = { thousands: " ", minus: "−" }

/** Kroner as a Danish reader reads them (the printed documents, `kasko offer`): "1.234,50". */
export const DANISH: KronerStyle = { thousands: ".", decimal: "," }

/** Kroner as an English reader reads them (the documents in English): "1,234.50". */
export const ENGLISH: KronerStyle = { thousands: ",", decimal: "." }

const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g

/**
 * Øre as kroner text — every amount kasko writes goes through here: 8400 → "84.00", as the quote's
 * `price.details` and CSV cells show it; `PRINTED`: −123456780 → "−1 234 567.80". An amount is
 * rounded half up (in size) to the last decimal shown.
 */
export const formatKroner = (ore: number, style: KronerStyle = {}): string => {
  const { thousands, decimal = ".", minus = "-", decimals = 2 } = style
  const size = Math.abs(ore)
  // the amount in units of the last decimal shown
  const units = Math.round(decimals === 0 ? size / 100 : decimals === 2 ? size : size * 100)
  const digits = String(units).padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = decimals === 4 ? digits.slice(-4).replace(/0{1,2}$/, "") : digits.slice(whole.length)
  const sign = ore < 0 && units > 0 ? minus : ""
  return `${sign}${thousands === undefined ? whole : whole.replace(THOUSANDS, thousands)}${fraction === "" ? "" : `${decimal}${fraction}`}`
}

/** Whole kroner to øre. */
export const oreOfKroner = (kroner: number): number => Math.round(kroner * 100)
