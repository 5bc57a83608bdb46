import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { changePercent } from "../src/model/ChangeGridCells.js"
import { defaultAxisText, parseAxisValues } from "../src/model/GridAxis.js"

describe("grid axes, written as kasko price-grid takes them", () => {
  it("reads from:to:step and lists", () => {
    expect(parseAxisValues("100000:300000:100000")).toEqual(Result.succeed(["100000", "200000", "300000"]))
    expect(parseAxisValues(" 18, 21 ,25 ")).toEqual(Result.succeed(["18", "21", "25"]))
  })

  it("refuses an empty axis, a backward range and more than 200 steps", () => {
    expect(Result.isFailure(parseAxisValues(" , "))).toBe(true)
    expect(parseAxisValues("300:100:10")).toEqual(Result.fail("from ≤ to and a positive step, please"))
    expect(parseAxisValues("0:2010:10")).toEqual(Result.fail("at most 200 steps"))
  })

  it("starts an enum axis with every option of the catalogue", () => {
    expect(defaultAxisText("vehicle_usage")).toBe(
      "privat_person_koersel,godstransport_halv_omsaetning,godstransport,godstransport_erhverv,godstransport_privat/erhverv"
    )
  })
})

describe("the change in per cent", () => {
  it("rounds as kasko tariff diff does, and has none from 0", () => {
    expect(changePercent(3000, 3072)).toBe(2.4)
    expect(changePercent(7296, 7346)).toBe(0.69)
    expect(changePercent(0, 100)).toBeNull()
  })
})
