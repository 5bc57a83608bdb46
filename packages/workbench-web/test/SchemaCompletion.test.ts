/** Completion offers what the tariff's Schema allows at the cursor, told apart by what is already written. */
import { Tariff } from "@kasko/core/actuarial"
import { parser } from "@lezer/json"
import { describe, expect, it } from "vitest"
import { completionAt } from "../src/model/SchemaCompletion.js"

/** The completion at the `|` in the text. */
const complete = (textWithCursor: string) => {
  const position = textWithCursor.indexOf("|")
  const doc = textWithCursor.replace("|", "")
  const found = completionAt(Tariff.Tariff.ast, parser.parse(doc), doc, position)
  return { ...found, labels: found?.options.map((option) => option.label) ?? [] }
}

describe("completion from the tariff's Schema", () => {
  it("offers the tariff's properties at the top, each with what it takes", () => {
    const found = complete('{"|')
    expect(found.labels).toEqual([
      '"product_name"',
      '"version"',
      '"effective_from"',
      '"currency"',
      '"monthly_surcharge_percent"',
      '"rules"',
      '"charges"'
    ])
    expect(found.options?.find((option) => option.label === '"product_name"')?.detail).toBe(
      '"insurance-car-leasing" | "insurance-car-standalone"'
    )
    expect(found.options?.[0]?.apply).toBe('"product_name": ')
  })

  it("leaves out the properties already written", () => {
    expect(complete('{"product_name": "insurance-car-leasing", "version": "v2", |}').labels).not.toContain('"version"')
  })

  it("offers the allowed values after a property's colon", () => {
    expect(complete('{"product_name": |').labels).toEqual(['"insurance-car-leasing"', '"insurance-car-standalone"'])
    expect(complete('{"rules": [{"event": {"type": |').labels).toEqual([
      '"add_coverage"',
      '"apply_loading"',
      '"set_deductible"',
      '"set_limit"',
      '"list_charge_as_coverage"'
    ])
  })

  it("offers an instruction's parameters by the instruction's type", () => {
    expect(complete('{"rules": [{"event": {"type": "apply_loading", "params": {|}}}]}').labels).toEqual([
      '"loading"',
      '"coverages"',
      '"percent"'
    ])
    expect(complete('{"rules": [{"event": {"type": "set_limit", "params": {|}}}]}').labels).toEqual([
      '"coverage"',
      '"amount"'
    ])
  })

  it("offers a premium's fields by its type", () => {
    expect(
      complete('{"rules": [{"event": {"type": "add_coverage", "params": {"premium": {"type": "vehicle_price_bands", |')
        .labels
    ).toEqual(['"bands"'])
  })

  it("offers facts and operators inside conditions, however deeply nested", () => {
    const facts = complete('{"rules": [{"conditions": {"all": [{"any": [{"not": {"fact": |').labels
    expect(facts).toContain('"youngest_user_age"')
    // the fact's former name is still read, but not offered
    expect(facts).not.toContain('"youngest_driver_age"')
    const factDetail = complete('{"rules": [{"conditions": {"all": [{"|').options?.find(
      (option) => option.label === '"fact"'
    )?.detail
    expect(factDetail).toContain('"youngest_user_age"')
    expect(factDetail).not.toContain("youngest_driver_age")
    // a list value only goes with in/notIn; a single value with the comparisons
    expect(
      complete('{"rules": [{"conditions": {"all": [{"fact": "variant", "value": 1, |').options?.[0]?.detail
    ).toMatch(/^"equal" \| "notEqual"/)
    expect(complete('{"rules": [{"conditions": {"all": [{"fact": "variant", "value": [], |').options?.[0]?.detail).toBe(
      '"in" | "notIn"'
    )
  })

  it("offers true and false for a boolean", () => {
    expect(complete('{"charges": [{"type": "flat", "shown_in_price_details": |').labels).toEqual(["true", "false"])
  })

  it("replaces the name being typed", () => {
    const found = complete('{"curr|": "DKK"}')
    expect(found.from).toBe(1)
    expect(found.to).toBe(7)
    expect(found.labels).toContain('"currency"')
  })
})
