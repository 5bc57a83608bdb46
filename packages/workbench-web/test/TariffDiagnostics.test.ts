/** The editor's underlines: each problem the Schema, the compiler or the linter finds, on the node it is about. */
import { parser } from "@lezer/json"
import { describe, expect, it } from "vitest"
import { tariffDiagnostics } from "../src/model/TariffDiagnostics.js"
import { LEASING_V1, leasingWith } from "./fixtures.js"

const diagnose = (doc: string) =>
  tariffDiagnostics(parser.parse(doc), doc).map((diagnostic) => ({
    ...diagnostic,
    text: doc.slice(diagnostic.from, diagnostic.to)
  }))

describe("tariff diagnostics", () => {
  it("finds nothing wrong with the shipped tariff", () => {
    expect(diagnose(LEASING_V1)).toEqual([])
  })

  it("finds nothing wrong with a tariff written before youngest_driver_age was renamed youngest_user_age", () => {
    const former = LEASING_V1.replaceAll('"youngest_user_age"', '"youngest_driver_age"')
    expect(former).toContain('"youngest_driver_age"')
    expect(diagnose(former)).toEqual([])
  })

  it("underlines a wrong value where it is written, with the Schema's message and its path", () => {
    const doc = leasingWith((document) => Object.assign(document, { currency: "EUR" }))
    expect(diagnose(doc)).toEqual([
      expect.objectContaining({ severity: "error", text: '"EUR"', message: 'currency: Expected "DKK", actual "EUR"' })
    ])
  })

  it("underlines an unknown property's name", () => {
    const doc = leasingWith((document) => Object.assign(document, { comment: "no such field" }))
    expect(diagnose(doc)).toEqual([
      expect.objectContaining({ text: '"comment"', message: expect.stringMatching(/^comment: is unexpected/) })
    ])
  })

  it("underlines the object that misses a property, at its name", () => {
    const doc = leasingWith((document) => {
      const rules = document["rules"] as Array<{ event: { params: Record<string, unknown> } }>
      delete rules[0]!.event.params["id"]
    })
    expect(diagnose(doc)).toEqual([
      expect.objectContaining({ text: '"params"', message: "rules[0].event.params.id: is missing" })
    ])
  })

  it("underlines a negative amount in a deep premium", () => {
    const doc = LEASING_V1.replace('"amount": 1800', '"amount": -1800')
    expect(diagnose(doc)).toEqual([
      expect.objectContaining({
        text: "-1800",
        message: expect.stringMatching(/^rules\[\d+\]\.event\.params\.premium\.amount: must be a non-negative amount/)
      })
    ])
  })

  it("puts the linter's findings on the rule they name", () => {
    const doc = LEASING_V1.replace(
      '"fact": "variant",\n            "operator": "equal",\n            "value": "standard"',
      '"fact": "variant",\n            "operator": "equal",\n            "value": "no such variant"'
    )
    expect(doc).not.toBe(LEASING_V1)
    expect(diagnose(doc)).toContainEqual(
      expect.objectContaining({
        severity: "error",
        text: '"standard: kasko"',
        message: 'rule "standard: kasko" is unreachable: no request makes its conditions hold'
      })
    )
  })

  it("leaves JSON syntax errors to the JSON linter", () => {
    expect(diagnose('{"product_name": ')).toEqual([])
  })
})
