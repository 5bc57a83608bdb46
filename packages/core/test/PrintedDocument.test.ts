import { describe, expect, it } from "vitest"
import { danishKroner, danishKronerAndOre } from "../src/documents/PrintedDocument.js"

describe("amounts in a printed document", () => {
  it("are Danish: points between thousands, whole kroner or a decimal comma, then kr.", () => {
    expect(danishKroner(15000)).toBe("15.000 kr.")
    expect(danishKroner(950)).toBe("950 kr.")
    expect(danishKronerAndOre("1234.50")).toBe("1.234,50 kr.")
    expect(danishKronerAndOre("-0.50")).toBe("-0,50 kr.")
  })
})
