import { describe, expect, it } from "vitest"
import { applyPercent, exactOre, formatKroner, kronerHalfUp, kronerUp, roundHalfUp } from "../src/pricing/Money.js"

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
