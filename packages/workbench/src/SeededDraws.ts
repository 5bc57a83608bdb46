/**
 * The draws a generated book is made of: pure-rand's xoroshiro128+ seeded from
 * any integer, uniform integers, tables of integer weights — no floating-point
 * function, so a seed gives the same book on every machine and Node version —
 * and the draws every book shares: a birth date for an age on a day, a date of
 * the years before one, the weight of a policy. Browser-safe.
 */
import { CalendarDate } from "@kasko/core/actuarial"
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from "pure-rand"

export type { RandomGenerator } from "pure-rand"

/** Values with their integer weights: a value is drawn weight ÷ Σ weights of the time. */
export type Weighted<T> = ReadonlyArray<readonly [T, number]>

/** A value of the table, by its weight. */
export const pick = <T>(rng: RandomGenerator, table: Weighted<T>): T => {
  let total = 0
  for (const [, weight] of table) total += weight
  let draw = unsafeUniformIntDistribution(0, total - 1, rng)
  for (const [value, weight] of table) {
    if (draw < weight) return value
    draw -= weight
  }
  return table.at(-1)![0]
}

/** A whole number from `from` to `to`, both included, each as likely. */
export const between = (rng: RandomGenerator, from: number, to: number): number =>
  unsafeUniformIntDistribution(from, to, rng)

/** One of the values, each as likely. */
export const anyOf = <T>(rng: RandomGenerator, values: ReadonlyArray<T>): T =>
  values[between(rng, 0, values.length - 1)]!

/** The generator of a book's draws; throws for a size, seed or date a book cannot have. */
export const seededGenerator = (options: {
  readonly size: number
  readonly seed: number
  readonly as_of: string
}): RandomGenerator => {
  if (!Number.isSafeInteger(options.size) || options.size < 0)
    throw new Error(`the size must be a whole number, not ${options.size}`)
  if (!Number.isSafeInteger(options.seed)) throw new Error(`the seed must be a whole number, not ${options.seed}`)
  if (!CalendarDate.isCalendarDate(options.as_of))
    throw new Error(`the as-of date must be YYYY-MM-DD, not "${options.as_of}"`)
  // xoroshiro128+ takes a 32-bit seed: fold larger ones in, so every integer seeds a book
  return xoroshiro128plus((options.seed | 0) ^ (Math.floor(options.seed / 2 ** 32) | 0))
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

export const pad = (value: number, width: number): string => String(value).padStart(width, "0")

const yearOf = (date: string): [number, number, number] => date.split("-").map(Number) as [number, number, number]

/** A month and a day of it, each as likely (29 February never drawn). */
const monthAndDay = (rng: RandomGenerator): [number, number] => {
  const month = between(rng, 1, 12)
  return [month, between(rng, 1, DAYS_IN_MONTH[month - 1]!)]
}

/** A birth date making the person exactly `age` on `asOf` (29 February never drawn). */
export const birthDateFor = (rng: RandomGenerator, age: number, asOf: string): string => {
  const [year, month, day] = yearOf(asOf)
  const [birthMonth, birthDay] = monthAndDay(rng)
  const hadBirthday = birthMonth < month || (birthMonth === month && birthDay <= day)
  return `${pad(year - age - (hadBirthday ? 0 : 1), 4)}-${pad(birthMonth, 2)}-${pad(birthDay, 2)}`
}

/** A day of one of the ten years before `asOf`'s year, each year, then month, then day as likely (29 February never). */
export const dateOfTheYearsBefore = (rng: RandomGenerator, asOf: string): string => {
  const year = yearOf(asOf)[0] - between(rng, 1, 10)
  const [month, day] = monthAndDay(rng)
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`
}

/** A policy's weight: 1 for 85 %; otherwise the part of the year written, 0.05–0.95. */
export const partOfYear = (rng: RandomGenerator): string =>
  between(rng, 1, 100) <= 85 ? "1" : `0.${pad(between(rng, 5, 95), 2)}`
