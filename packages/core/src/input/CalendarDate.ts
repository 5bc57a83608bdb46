/**
 * Calendar dates as `YYYY-MM-DD` strings, the form the specification uses.
 * Pure: the current date always comes in as an argument (from Effect's Clock).
 * @module
 */

/** A calendar date in `YYYY-MM-DD` form. */
export type CalendarDate = string

const DATE_FORM = /^(\d{4})-(\d{2})-(\d{2})$/

interface DateParts {
  readonly year: number
  readonly month: number
  readonly day: number
}

const partsOf = (date: CalendarDate): DateParts | undefined => {
  const match = DATE_FORM.exec(date)
  if (match === null) return undefined
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }
}

/** True when the year, month and day form a date that exists in the Gregorian calendar. */
export const isRealDate = (year: number, month: number, day: number): boolean => {
  if (month < 1 || month > 12 || day < 1) return false
  const daysInMonth = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!
  return day <= daysInMonth
}

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

/** True for a `YYYY-MM-DD` string naming a real date. */
export const isCalendarDate = (value: string): boolean => {
  const parts = partsOf(value)
  return parts !== undefined && parts.year >= 1 && isRealDate(parts.year, parts.month, parts.day)
}

const DAY_MILLIS = 86_400_000
let lastDay = Number.NaN
let lastDate = ""

/** The UTC calendar date of an instant given in epoch milliseconds (the last day's answer is kept: every request asks). */
export const calendarDateOfMillis = (epochMillis: number): CalendarDate => {
  const day = Math.floor(epochMillis / DAY_MILLIS)
  if (day !== lastDay) {
    lastDate = new Date(epochMillis).toISOString().slice(0, 10)
    lastDay = day
  }
  return lastDate
}

/** Whole years from `birthDate` to `onDate` (a birthday counts on its day). */
export const ageOn = (birthDate: CalendarDate, onDate: CalendarDate): number => {
  const birth = partsOf(birthDate)
  const on = partsOf(onDate)
  if (birth === undefined || on === undefined) throw new TypeError(`not calendar dates: ${birthDate}, ${onDate}`)
  const beforeBirthday = on.month < birth.month || (on.month === birth.month && on.day < birth.day)
  return on.year - birth.year - (beforeBirthday ? 1 : 0)
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/

/**
 * The instant an RFC 3339 date-time names, in epoch milliseconds, or undefined when it names none: its date must
 * be a real one (not 2026-02-31, which Date.parse rolls over into March), its hours 00–23, its minutes and
 * seconds 00–59.
 */
export const millisOfDateTime = (value: string): number | undefined => {
  const match = DATE_TIME.exec(value)
  if (match === null || !isCalendarDate(match[1]!)) return undefined
  const millis = Date.parse(value)
  return Number.isNaN(millis) ? undefined : millis
}

/** RFC 3339 date-time in UTC with milliseconds and `Z`. */
export const dateTimeOfMillis = (epochMillis: number): string => new Date(epochMillis).toISOString()

/** The first of `dates` after `from`: when what took effect on `from` gives way to the next of its kind; or undefined. */
const firstAfter = (dates: ReadonlyArray<CalendarDate>, from: CalendarDate): CalendarDate | undefined =>
  dates.reduce<CalendarDate | undefined>(
    (first, date) => (date > from && (first === undefined || date < first) ? date : first),
    undefined
  )

/**
 * Whether two effective-dated things are ever in force together: `a`, in force from `aFrom` until the first of
 * `aDates` (the dates its kind's versions take effect) after it, and `b` likewise — a tariff version and a version of
 * its product, say.
 */
export const inForceTogether = (
  aFrom: CalendarDate,
  aDates: ReadonlyArray<CalendarDate>,
  bFrom: CalendarDate,
  bDates: ReadonlyArray<CalendarDate>
): boolean => {
  const aUntil = firstAfter(aDates, aFrom)
  const bUntil = firstAfter(bDates, bFrom)
  return (aUntil === undefined || bFrom < aUntil) && (bUntil === undefined || aFrom < bUntil)
}
