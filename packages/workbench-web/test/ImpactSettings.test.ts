import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  DEFAULT_IMPACT_CHOICES,
  type ImpactChoices,
  impactCommandLine,
  impactSettingsOf,
  shellLine
} from "../src/model/ImpactSettings.js"

const choices = (change: Partial<ImpactChoices> = {}): ImpactChoices => ({
  old: "insurance-car-leasing/v1.json",
  new: "insurance-car-leasing/v2.json",
  ...DEFAULT_IMPACT_CHOICES,
  ...change
})

const problems = (change: Partial<ImpactChoices>) => {
  const settings = impactSettingsOf(choices(change))
  return Result.isFailure(settings) ? settings.failure : []
}

describe("the impact view's options, read as kasko tariff impact reads them", () => {
  it("leaves every option to the command's default when the fields are empty", () => {
    expect(impactSettingsOf(choices())).toEqual(
      Result.succeed({ pricing_date: undefined, impact: {}, target: undefined })
    )
  })

  it("reads caps, a target on a coverage, bands, movers and a date", () => {
    expect(
      impactSettingsOf(
        choices({
          pricing_date: "2027-01-01",
          cap_increase: "10%",
          cap_decrease: "-5 %",
          target: "+2%",
          factor_on: "kasko",
          bands: "-10, -2.5,0,2.5,10%",
          top: "3"
        })
      )
    ).toEqual(
      Result.succeed({
        pricing_date: "2027-01-01",
        impact: {
          cap_increase_percent: 10,
          cap_decrease_percent: 5,
          percent_edges: [-10, -2.5, 0, 2.5, 10],
          top_movers: 3
        },
        target: { percent: 2, on: "kasko" }
      })
    )
  })

  it("names each field that does not read, and why", () => {
    expect(
      problems({
        pricing_date: "2027-02-30",
        cap_increase: "ten",
        cap_decrease: "101%",
        target: "-100%",
        bands: "-5,5",
        top: "1001"
      })
    ).toEqual([
      { field: "pricing_date", message: "a date YYYY-MM-DD, or empty for NEW's effective_from" },
      { field: "cap_increase", message: "a per cent like 15% or +3%, please" },
      { field: "cap_decrease", message: "the largest decrease: a per cent up to 100, two decimals at most" },
      { field: "target", message: "a change above −100 %, four decimals at most" },
      { field: "bands", message: "the edges must include 0" },
      { field: "top", message: "a whole number from 0 to 1000" }
    ])
    expect(problems({ cap_increase: "-1%" })).toEqual([
      { field: "cap_increase", message: "the largest increase: a per cent from 0, two decimals at most" }
    ])
    expect(problems({ cap_increase: "1.125%" })).toHaveLength(1)
    expect(problems({ target: "1.12345%" })).toEqual([
      { field: "target", message: "a per cent like 15% or +3%, please" }
    ])
    expect(problems({ bands: "-5,0,0,5" })).toEqual([{ field: "bands", message: "the edges must rise" }])
    expect(problems({ bands: "-5,x,5" })).toEqual([
      { field: "bands", message: "per cents separated by commas, like -10,-5,0,5,10, please" }
    ])
  })

  it("writes the command line that runs the same test", () => {
    const settings = Result.getOrThrow(
      impactSettingsOf(
        choices({ cap_increase: "10", cap_decrease: "5%", target: "-1.5%", factor_on: "kasko", bands: "-5,0,5" })
      )
    )
    const words = impactCommandLine("tariffs/v1.json", "my tariffs/v2.json", "book.csv", settings)
    expect(words).toEqual([
      "kasko",
      "tariff",
      "impact",
      "tariffs/v1.json",
      "my tariffs/v2.json",
      "--portfolio",
      "book.csv",
      "--cap-increase=10%",
      "--cap-decrease=5%",
      "--target=-1.5%",
      "--factor-on",
      "kasko",
      "--bands=-5,0,5"
    ])
    expect(shellLine(words)).toBe(
      "kasko tariff impact tariffs/v1.json 'my tariffs/v2.json' --portfolio book.csv --cap-increase=10% --cap-decrease=5% --target=-1.5% --factor-on kasko --bands=-5,0,5"
    )
    // the factor on the whole premium is the command's default: not written
    const onPremium = Result.getOrThrow(impactSettingsOf(choices({ target: "3%" })))
    expect(impactCommandLine("a.json", "b.json", "book.csv", onPremium).slice(7)).toEqual(["--target=+3%"])
  })
})
