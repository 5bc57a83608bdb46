/** The product document: the shipped products are documents, checked as strictly as an insurer's own. */
import { Result, Schema, SchemaIssue } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import * as Examples from "../src/Examples.js"
import { pricingRequestOf, priceWith } from "../src/pricing/Pricing.js"
import { RatingWorksheet, worksheetOf } from "../src/pricing/RatingWorksheet.js"
import { decodeTariffs, SHIPPED_TARIFF_DOCUMENTS } from "../src/pricing/TariffDocuments.js"
import { decodeOfferRequest } from "../src/quote/Offer.js"
import { parametersSchemaOf } from "../src/product/Parameters.js"
import { type ParameterDocument, ProductDocument, productDocumentJsonSchema } from "../src/product/ProductDocument.js"
import { SHIPPED_PRODUCT_DOCUMENTS } from "../src/product/ShippedProducts.js"

const strictly = Schema.decodeUnknownResult(ProductDocument)
const STRICT = { errors: "all", onExcessProperty: "error" } as const

const issuesOf = (document: unknown): Array<string> => {
  const decoded = strictly(document, STRICT)
  if (Result.isSuccess(decoded)) return []
  return SchemaIssue.makeFormatterStandardSchemaV1()(decoded.failure.issue).issues.map(
    (issue) => `${(issue.path ?? []).map(String).join(".")}: ${issue.message}`
  )
}

const leasing = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "products", "insurance-car-leasing", "product.json"), "utf8")
) as Record<string, unknown>

describe("the product document", () => {
  it("holds both shipped products, each decoding with no unknown member", () => {
    expect(SHIPPED_PRODUCT_DOCUMENTS.map((document) => issuesOf(document))).toEqual([[], []])
    expect(SHIPPED_PRODUCT_DOCUMENTS.map((document) => (document as { product_name: string }).product_name)).toEqual([
      "insurance-car-leasing",
      "insurance-car-standalone"
    ])
  })

  it("is published as the JSON Schema the documents name, generated from the Schema", async () => {
    expect(leasing["$schema"]).toBe("../product.schema.json")
    await expect(`${JSON.stringify(productDocumentJsonSchema(), null, 2)}\n`).toMatchFileSnapshot(
      "../products/product.schema.json"
    )
  })

  it("names every mistake of a document at once, with its path", () => {
    const parameters = leasing["parameters"] as Array<Record<string, unknown>>
    const broken = {
      ...leasing,
      effective_from: "2025-02-30",
      title: " ",
      parameters: [{ ...parameters[0], type: "text" }, ...parameters.slice(1)],
      varaints: []
    }
    expect(issuesOf(broken)).toEqual([
      "varaints: Expected no excess property",
      "effective_from: must be a date YYYY-MM-DD",
      "title: must not be blank",
      'parameters.0.type: Expected "enum" | "number" | "date"'
    ])
  })
})

describe("a product's parameters, decoded from its document", () => {
  const decode = (parameters: ReadonlyArray<ParameterDocument>, input: unknown) =>
    Schema.decodeUnknownSync(parametersSchemaOf(parameters))(input)

  it("fills in the default of an enum, a number and a date when the parameter is absent or blank", () => {
    const parameters: ReadonlyArray<ParameterDocument> = [
      {
        name: "plan",
        title: "Plan",
        type: "enum",
        required: true,
        default: "b",
        options: [
          { id: "a", title: "A" },
          { id: "b", title: "B" }
        ]
      },
      { name: "seats", title: "Sæder", type: "number", required: false, minimum: 1, maximum: 9, default: "5" },
      { name: "since", title: "Siden", type: "date", required: false, default: "2020-01-01" }
    ]
    expect(decode(parameters, {})).toEqual({ plan: "b", seats: 5, since: "2020-01-01" })
    expect(decode(parameters, { plan: "a", seats: " ", since: "2021-06-30" })).toEqual({
      plan: "a",
      seats: 5,
      since: "2021-06-30"
    })
  })
})

describe("a price's worksheet", () => {
  it("records the product's version beside the tariff's, and reads a worksheet stored without it", () => {
    const tariff = decodeTariffs(SHIPPED_TARIFF_DOCUMENTS)[0]!
    const request = Result.getOrThrow(decodeOfferRequest(Examples.offerRequest(), "2026-03-02"))
    const worksheet = worksheetOf(priceWith(tariff, pricingRequestOf(request.product, "2026-03-02")))
    expect([worksheet.tariff_version, worksheet.product_version]).toEqual(["v1", "v1"])
    const { product_version: _stored, ...before } = Schema.encodeSync(RatingWorksheet)(worksheet)
    expect(Schema.decodeUnknownSync(RatingWorksheet)(before).product_version).toBeUndefined()
  })
})
