import { describe, expect, it } from "vitest"
import {
  applyPercent,
  exactOre,
  formatKroner,
  kronerHalfUp,
  kronerUp,
  DANISH,
  PRINTED,
  roundHalfUp
} from "../src/pricing/Money.js"

describe("money in øre", () => {
  it("rounds half up once, after all factors", () => {
    // 246 914 øre × 1.3 = 320 988.2 → 320 988; 5 øre × 1.1 = 5.5 → 6
    expect(roundHalfUp(applyPercent(exactOre(246914), 30))).toBe(320988)
    expect(roundHalfUp(applyPercent(exactOre(5), 10))).toBe(6)
  })

  it("rounds kroner half up and up", () => {
    expect(kronerHalfUp(759955)).toBe(7600)
    expect(kronerHalfUp(729625)).toBe(7296)
    expect(kronerUp({ numerator: 6649601n, denominator: 100n })).toBe(665)
    expect(kronerUp({ numerator: 6649601, denominator: 100 })).toBe(665)
    expect(kronerUp(exactOre(66500))).toBe(665)
  })

  it("formats kroner with two decimals", () => {
    expect(formatKroner(8400)).toBe("84.00")
    expect(formatKroner(333)).toBe("3.33")
    expect(formatKroner(7)).toBe("0.07")
    expect(formatKroner(-123456)).toBe("-1234.56")
    expect(formatKroner(-0)).toBe("0.00")
  })

  it("prints kroner for people: thousands apart, a true minus sign", () => {
    expect(formatKroner(123456780, PRINTED)).toBe("1 234 567.80")
    expect(formatKroner(-123456780, PRINTED)).toBe("−1 234 567.80")
    expect(formatKroner(99999, PRINTED)).toBe("999.99")
    expect(formatKroner(-4, PRINTED)).toBe("−0.04")
  })

  it("writes Danish kroner: points between thousands, a decimal comma", () => {
    expect(formatKroner(123450, DANISH)).toBe("1.234,50")
    expect(formatKroner(-1500000, DANISH)).toBe("-15.000,00")
  })

  it("rounds to whole kroner half up", () => {
    expect(formatKroner(1300200, { ...DANISH, decimals: 0 })).toBe("13.002")
    expect(formatKroner(500000, { ...DANISH, decimals: 0 })).toBe("5.000")
    expect(formatKroner(99950, { thousands: " ", decimals: 0 })).toBe("1 000")
    expect(formatKroner(99949, { decimals: 0 })).toBe("999")
    expect(formatKroner(-30, { minus: "−", decimals: 0 })).toBe("0")
  })

  it("shows an exact amount's hundredths of an øre, and at least two decimals", () => {
    expect(formatKroner(1234567.8, { thousands: " ", decimals: 4 })).toBe("12 345.678")
    expect(formatKroner(1234.5, { decimals: 4 })).toBe("12.345")
    expect(formatKroner(1230, { decimals: 4 })).toBe("12.30")
    expect(formatKroner(1234.5678, { decimals: 4 })).toBe("12.3457")
  })

  it("rounds a fraction of an øre half up to the øre", () => {
    expect(formatKroner(1234.5)).toBe("12.35")
    expect(formatKroner(1234.49)).toBe("12.34")
  })
})

describe("exact arithmetic beyond safe integers", () => {
  it("falls back to bigint and stays exact", () => {
    // 10 000 000 kr × 240 bp with five +100 % loadings: the numerator leaves the safe range
    let amount = { numerator: 2_400_000_000 as number | bigint, denominator: 100 as number | bigint }
    for (let loading = 0; loading < 5; loading++) amount = applyPercent(amount, 100)
    expect(typeof amount.numerator).toBe("bigint")
    expect(roundHalfUp(amount)).toBe((2_400_000_000 * 32) / 100)
  })

  it("rounds large safe numerators exactly where a float division would slip", () => {
    // 2^53 - 1 is odd: half of it is exactly ….5 and rounds up
    expect(roundHalfUp({ numerator: Number.MAX_SAFE_INTEGER, denominator: 2 })).toBe(4503599627370496)
    expect(roundHalfUp({ numerator: BigInt(Number.MAX_SAFE_INTEGER), denominator: 2n })).toBe(4503599627370496)
  })
})
