import { describe, expect, it } from "vitest"
import { isCprNumber, isCvrNumber, isPostalCode, isVin } from "../src/quote/IdentityNumbers.js"

describe("identity numbers (DESIGN §2)", () => {
  it.each([
    ["0101901234", true],
    ["2902004123", true], // 29 Feb 2000: seventh digit 4, year 00 → 2000, a leap year
    ["2902001234", false], // seventh digit 1 → 1900, not a leap year
    ["2902964123", true], // seventh digit 4 with year 96 → 1996, a leap year
    ["2902974123", false], // 1997
    ["3104901234", false], // 31 April
    ["0013901234", false],
    ["010190123", false],
    ["010190123a", false],
    ["010190-1234", false]
  ])("CPR %s is %s", (value, valid) => {
    expect(isCprNumber(value)).toBe(valid)
  })

  it.each([
    ["12345674", true],
    ["12345682", true],
    ["12345678", false],
    ["02345674", false],
    ["1234567", false]
  ])("CVR %s is %s", (value, valid) => {
    expect(isCvrNumber(value)).toBe(valid)
  })

  it.each([
    [555, true],
    [9990, true],
    [554, false],
    [9991, false],
    [8000.5, false]
  ])("postal code %s is %s", (value, valid) => {
    expect(isPostalCode(value)).toBe(valid)
  })

  it.each([
    ["TMBJB7NY5MF012345", true],
    ["TMBJB7NY5MF01234I", false],
    ["TMBJB7NY5MF01234Q", false],
    ["tmbjb7ny5mf012345", false],
    ["TMBJB7NY5MF01234", false]
  ])("VIN %s is %s", (value, valid) => {
    expect(isVin(value)).toBe(valid)
  })
})
