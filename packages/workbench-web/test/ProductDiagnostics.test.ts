/** The product editor's underlines: each of the folder checker's findings on the document, at the place it names. */
import { ProductCheck } from "@kasko/core/actuarial"
import { parser } from "@lezer/json"
import { describe, expect, it } from "vitest"
import { jsonPathOf, productDiagnostics } from "../src/model/ProductDiagnostics.js"
import { VAN_DOCUMENT, vanFolder, vanWith } from "./fixtures.js"

const FILE = "insurance-van-business/product.json"

/** The checker's findings on the van folder with `doc` as its document, placed in `doc`, with the text each marks. */
const diagnose = (doc: string) => {
  const findings = ProductCheck.checkProductFolder("insurance-van-business", vanFolder({ "product.json": doc }).files)
  return productDiagnostics(parser.parse(doc), doc, FILE, findings).map((diagnostic) => ({
    severity: diagnostic.severity,
    message: diagnostic.message,
    text: doc.slice(diagnostic.from, diagnostic.to)
  }))
}

describe("a finding's JSON path", () => {
  it("is read against the document, so that an option's id may hold a dot", () => {
    const document = {
      vehicle_codes: { type: { codes: { "3.5t": "03" } } },
      parameters: [{ options: [{}, { id: "x" }] }]
    }
    expect(jsonPathOf("vehicle_codes.type.codes.3.5t", document)).toEqual(["vehicle_codes", "type", "codes", "3.5t"])
    expect(jsonPathOf("parameters[0].options[1].id", document)).toEqual(["parameters", 0, "options", 1, "id"])
  })

  it("names a member the document lacks up to the next dot or bracket", () => {
    expect(jsonPathOf("features[0].description", { features: [{}] })).toEqual(["features", 0, "description"])
    expect(jsonPathOf("", {})).toEqual([])
  })
})

describe("product diagnostics", () => {
  it("finds nothing wrong with the example's document", () => {
    expect(diagnose(VAN_DOCUMENT)).toEqual([])
  })

  it("underlines a value the product's Schema refuses where it is written, with its path", () => {
    expect(diagnose(vanWith((document) => Object.assign(document, { effective_from: "2026-13-01" })))).toEqual([
      {
        severity: "error",
        message: 'effective_from: must be a date YYYY-MM-DD, got "2026-13-01"',
        text: '"2026-13-01"'
      }
    ])
  })

  it("underlines an unknown member at its name, with the member it was probably meant to be", () => {
    const doc = vanWith((document) => {
      const features = document["features"] as Array<Record<string, unknown>>
      features[0]!["descripton"] = features[0]!["description"]
      delete features[0]!["description"]
    })
    expect(diagnose(doc)).toEqual([
      expect.objectContaining({ text: '"descripton"', message: expect.stringMatching(/did you mean "description"/) }),
      // the member missing is marked where the object it is missing from is named
      expect.objectContaining({ message: "features[0].description: is missing", text: "{" })
    ])
  })

  it("underlines what the document's own rules refuse at the part they name, errors and warnings apart", () => {
    const doc = vanWith((document) => {
      const parameters = document["parameters"] as Array<Record<string, unknown>>
      const mileage = parameters.find((parameter) => parameter["name"] === "annual_mileage_km")!
      Object.assign(mileage, { minimum: 200000 })
      const features = document["features"] as Array<{ parameter_refs: Array<string> }>
      features[0]!.parameter_refs.push("no_such_parameter")
    })
    const found = diagnose(doc)
    expect(found).toContainEqual({
      severity: "error",
      message: expect.stringMatching(/^parameters\[7\]\.minimum: /),
      text: "200000"
    })
    expect(found).toContainEqual(expect.objectContaining({ severity: "warning", text: '"no_such_parameter"' }))
  })

  it("underlines a member written twice at its second name, by the line and column the checker gives", () => {
    const doc = VAN_DOCUMENT.replace('"version": "v1",', '"version": "v1",\n  "version": "v2",')
    const findings = ProductCheck.checkProductFolder("insurance-van-business", vanFolder({ "product.json": doc }).files)
    const twice = productDiagnostics(parser.parse(doc), doc, FILE, findings).filter((diagnostic) =>
      diagnostic.message.includes("written twice")
    )
    const second = doc.indexOf('"version"', doc.indexOf('"version"') + 1)
    expect(twice).toEqual([
      expect.objectContaining({ severity: "error", from: second, to: second + '"version"'.length })
    ])
  })

  it("places only the findings on the document: its folder's other files are listed, not underlined", () => {
    const findings = [
      { severity: "error" as const, file: "insurance-van-business/tariffs/v1.json", path: "rules[0]", message: "x" }
    ]
    expect(productDiagnostics(parser.parse(VAN_DOCUMENT), VAN_DOCUMENT, FILE, findings)).toEqual([])
  })
})
