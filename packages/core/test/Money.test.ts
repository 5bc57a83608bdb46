import { describe, expect, it } from "vitest"
import { applyPercent, exactOre, formatKroner, kronerHalfUp, kronerUp, roundHalfUp } from "../src/Money.js"

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
    expect(kronerUp(exactOre(66500))).toBe(665)
  })

  it("formats kroner with two decimals", () => {
    expect(formatKroner(8400)).toBe("84.00")
    expect(formatKroner(333)).toBe("3.33")
    expect(formatKroner(7)).toBe("0.07")
  })
})
