/**
 * Danish identity numbers and codes a quote request carries: CPR, CVR, P-number,
 * postal code and VIN (DESIGN §2).
 */
import { isRealDate } from "../input/CalendarDate.js"

/** CPR: 10 digits whose first six (DDMMYY) with the century from the seventh digit form a real date; no modulus check (numbers issued since 2007 need not pass it). */
export const isCprNumber = (value: string): boolean => {
  if (!/^\d{10}$/.test(value)) return false
  const day = Number(value.slice(0, 2))
  const month = Number(value.slice(2, 4))
  const twoDigitYear = Number(value.slice(4, 6))
  return isRealDate(cprCentury(Number(value[6]), twoDigitYear) + twoDigitYear, month, day)
}

// The seventh digit fixes the century (CPR-kontoret's table).
const cprCentury = (seventhDigit: number, twoDigitYear: number): number => {
  if (seventhDigit <= 3) return 1900
  if (seventhDigit === 4 || seventhDigit === 9) return twoDigitYear <= 36 ? 2000 : 1900
  return twoDigitYear <= 57 ? 2000 : 1800
}

const CVR_WEIGHTS = [2, 7, 6, 5, 4, 3, 2, 1] as const

/** CVR: 8 digits, not starting with 0, passing the modulus-11 check with weights 2,7,6,5,4,3,2,1. */
export const isCvrNumber = (value: string): boolean => {
  if (!/^[1-9]\d{7}$/.test(value)) return false
  const weighted = CVR_WEIGHTS.reduce((sum, weight, index) => sum + weight * Number(value[index]), 0)
  return weighted % 11 === 0
}

/** P-number (production unit, `cvrp_number`): 10 digits. */
export const isPNumber = (value: string): boolean => /^\d{10}$/.test(value)

/** Danish postal code: 0555–9990 (sent as an integer, so 555–9990). */
export const isPostalCode = (value: number): boolean => Number.isInteger(value) && value >= 555 && value <= 9990

/** VIN: 17 characters, capital letters and digits, never I, O or Q (ISO 3779). */
export const isVin = (value: string): boolean => /^[A-HJ-NPR-Z0-9]{17}$/.test(value)
