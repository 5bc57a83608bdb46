import { describe, expect, it } from "vitest"
import { count, money, percent, plainMoney, plural, signedMoney, wholeMoney } from "../src/ReportFigures.js"

describe("the figures of the workbench's reports", () => {
  it("print kroner thousands apart with a true minus sign, through the core's formatter", () => {
    expect(money(1234567.8)).toBe("1 234 567.80")
    expect(money(-0.05)).toBe("−0.05")
    expect(signedMoney(12.5)).toBe("+12.50")
    expect(signedMoney(-12.5)).toBe("−12.50")
    expect(signedMoney(0)).toBe("0.00")
  })

  it("write kroner as plain numbers for a CSV cell, and whole kroner for a price", () => {
    expect(plainMoney(1234567.8)).toBe("1234567.80")
    expect(plainMoney(-5)).toBe("-5.00")
    expect(wholeMoney(14337)).toBe("14 337")
  })

  it("count, give per cents their sign and say plurals", () => {
    expect(count(1234567)).toBe("1 234 567")
    expect(percent(-2.5)).toBe("−2.50 %")
    expect(percent(1.23456, 4)).toBe("+1.2346 %")
    expect(percent(null)).toBe("—")
    expect(plural(1, "case")).toBe("1 case")
    expect(plural(2000, "case")).toBe("2 000 cases")
  })
})
