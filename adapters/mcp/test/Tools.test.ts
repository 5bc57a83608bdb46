/**
 * The tool table as a client reads it: the seven tools, each with a description, a scope and JSON Schemas that a
 * validator compiles and that the core's own example requests and answers satisfy; a product added as data is in
 * the enums and the descriptions, with no code; a partner limited to some products finds only those there.
 */
import { Examples, ProductCatalogue } from "@kasko/core"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { catalogueShown } from "../src/ProductsShown.js"
import { TOOL_NAMES, toolsOf } from "../src/Tools.js"

const VAN_PRODUCT = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "examples",
  "products",
  "insurance-van-business",
  "product.json"
)

const withVan = () =>
  ProductCatalogue.withProducts(
    ProductCatalogue.decodeCatalogue([JSON.parse(readFileSync(VAN_PRODUCT, "utf8"))]).versions
  )

const validator = new AjvJsonSchemaValidator()
const valid = (schema: object, value: unknown) => validator.getValidator(schema as never)(value)

const toolNamed = (name: string, catalogue = ProductCatalogue.shipped) =>
  toolsOf(catalogue).find((tool) => tool.name === name)!

describe("the tools", () => {
  it("are the seven of the issue, each with a description, a scope and object schemas", () => {
    const tools = toolsOf(ProductCatalogue.shipped)
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES])
    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.scope]))).toEqual({
      get_product: "products:read",
      price_offer: "offers:create",
      explain_price: "offers:create",
      compare_features: "offers:create",
      create_quote: "quotes:create",
      get_quote: "quotes:read",
      activate_quote: "quotes:activate"
    })
    for (const tool of tools) {
      expect(tool.description.length, tool.name).toBeGreaterThan(100)
      expect(tool.inputSchema["type"], tool.name).toBe("object")
      expect(tool.outputSchema["type"], tool.name).toBe("object")
      // a schema stands alone: no reference a client would have to resolve
      expect(JSON.stringify([tool.inputSchema, tool.outputSchema]), tool.name).not.toContain("$ref")
    }
  })

  it("take the REST bodies the core's examples are, and refuse what the decoders refuse", () => {
    expect(valid(toolNamed("price_offer").inputSchema, Examples.offerRequest()).valid).toBe(true)
    expect(valid(toolNamed("explain_price").inputSchema, Examples.offerRequest()).valid).toBe(true)
    expect(valid(toolNamed("create_quote").inputSchema, Examples.quoteRequest()).valid).toBe(true)
    const unknownParameter = Examples.offerRequest()
    const product = {
      ...unknownParameter.product,
      parameters: { ...unknownParameter.product.parameters, colour: "red" }
    }
    expect(valid(toolNamed("price_offer").inputSchema, { product }).valid).toBe(false)
    expect(valid(toolNamed("get_product").inputSchema, { product_name: "insurance-car-leasing" }).valid).toBe(true)
    expect(valid(toolNamed("get_product").inputSchema, { product_name: "insurance-boat" }).valid).toBe(false)
  })

  it("describe their answers as the core's examples answer them", () => {
    expect(valid(toolNamed("price_offer").outputSchema, Examples.priceOfferAnswer()).valid).toBe(true)
    expect(valid(toolNamed("create_quote").outputSchema, Examples.quoteAnswer()).valid).toBe(true)
    expect(valid(toolNamed("get_quote").outputSchema, Examples.quoteAnswer()).valid).toBe(true)
    expect(valid(toolNamed("get_quote").outputSchema, Examples.activatedQuoteAnswer()).valid).toBe(true)
    expect(valid(toolNamed("activate_quote").outputSchema, Examples.activationAnswer()).valid).toBe(true)
    expect(
      valid(toolNamed("get_product").outputSchema, ProductCatalogue.productDefinition("insurance-car-leasing")).valid
    ).toBe(true)
  })

  it("say each parameter's allowed values, from the catalogue", () => {
    const description = toolNamed("price_offer").description
    for (const document of ProductCatalogue.shipped.products)
      for (const parameter of document.parameters) {
        expect(description).toContain(`- ${parameter.name} (${parameter.title})`)
        for (const option of parameter.options ?? []) expect(description).toContain(option.id)
      }
    expect(description).toContain("standard when policy_holder is person")
  })

  it("sell a product added as data without code: its name in the enums, its parameters in the descriptions", () => {
    const catalogue = withVan()
    const priceOffer = toolNamed("price_offer", catalogue)
    expect(JSON.stringify(priceOffer.inputSchema)).toContain("insurance-van-business")
    expect(priceOffer.description).toContain("Parameters of insurance-van-business:")
    expect(priceOffer.description).toContain("- overnight_parking (")
    expect(priceOffer.description).toContain("- insurance-van-business: basis (")
    expect(toolNamed("get_product", catalogue).description).toContain("insurance-van-business")
    // the shipped catalogue's tools are not those of another catalogue: made once per catalogue
    expect(toolsOf(catalogue)).toBe(toolsOf(catalogue))
    expect(JSON.stringify(toolNamed("price_offer").inputSchema)).not.toContain("insurance-van-business")
  })

  it("for a partner limited to some products, name only those: made once per list, and none for an empty one", () => {
    const catalogue = withVan()
    const vanOnly = catalogueShown(catalogue, ["insurance-van-business", "no-longer-sold"])
    expect(vanOnly.productNames).toEqual(["insurance-van-business"])
    expect(catalogueShown(catalogue, ["insurance-van-business"])).toBe(vanOnly)
    expect(toolsOf(catalogueShown(catalogue, ["insurance-van-business"]))).toBe(toolsOf(vanOnly))
    expect(catalogueShown(catalogue, undefined)).toBe(catalogue)
    expect(catalogueShown(catalogue, [...catalogue.productNames].reverse())).toBe(catalogue)
    const listed = JSON.stringify(toolsOf(vanOnly))
    expect(listed).toContain("insurance-van-business")
    for (const name of ProductCatalogue.shipped.productNames) expect(listed).not.toContain(name)
    const none = toolNamed("get_product", catalogueShown(catalogue, []))
    expect(none.description).toContain("The products: none: this partner may sell no product.")
    expect(valid(none.inputSchema, { product_name: "insurance-van-business" }).valid).toBe(false)
  })
})
