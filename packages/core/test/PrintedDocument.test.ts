import { describe, expect, it } from "vitest"
import { danishInstant, danishKroner, danishKronerAndOre } from "../src/documents/PrintedDocument.js"

describe("amounts in a printed document", () => {
  it("are Danish: points between thousands, whole kroner or a decimal comma, then kr.", () => {
    expect(danishKroner(15000)).toBe("15.000 kr.")
    expect(danishKroner(950)).toBe("950 kr.")
    expect(danishKronerAndOre("1234.50")).toBe("1.234,50 kr.")
    expect(danishKronerAndOre("-0.50")).toBe("-0,50 kr.")
  })
})

describe("instants in a printed document", () => {
  it("are in Danish local time: UTC+1 in winter, UTC+2 in summer, the day the clock in Copenhagen shows", () => {
    expect(danishInstant(Date.parse("2026-03-02T09:00:00.000Z"))).toBe("2. marts 2026 kl. 10.00")
    expect(danishInstant(Date.parse("2026-07-01T10:23:00.000Z"))).toBe("1. juli 2026 kl. 12.23")
    // summer time begins at 01.00 UTC on the last Sunday of March: 01.59 is followed by 03.00
    expect(danishInstant(Date.parse("2026-03-29T00:59:00.000Z"))).toBe("29. marts 2026 kl. 01.59")
    expect(danishInstant(Date.parse("2026-03-29T01:00:00.000Z"))).toBe("29. marts 2026 kl. 03.00")
    // late evening UTC is already the next day in Copenhagen
    expect(danishInstant(Date.parse("2026-12-31T23:30:00.000Z"))).toBe("1. januar 2027 kl. 00.30")
  })
})
