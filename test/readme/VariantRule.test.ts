/**
 * README's paragraph on Standard and Extended states the core's rule: every
 * parameter of `Variant.STANDARD_WHEN` with its value, so a changed rule
 * fails here until the paragraph says it too.
 */
import { Variant } from "@kasko/core/actuarial"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const README = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8")

describe("README on Standard and Extended", () => {
  it("names every parameter and value of the core's rule", () => {
    const paragraph = README.split("\n\n").find((block) => block.startsWith("**Standard or Extended.**"))
    expect(paragraph).toBeDefined()
    const text = paragraph!.replace(/\s+/g, " ")
    const named = Object.entries(Variant.firstVariantWhen("insurance-car-leasing")).map(([parameter, value]) => [
      text.includes(`\`${parameter}\``),
      text.includes(`\`${value}\``)
    ])
    expect(named).toEqual(Object.keys(Variant.firstVariantWhen("insurance-car-leasing")).map(() => [true, true]))
    expect(text).toContain("any other value makes it Extended")
  })
})
