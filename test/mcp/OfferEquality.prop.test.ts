/**
 * Issue 46, must-show 2: for 50 generated cases — both products, every feature, every parameter's options, prices
 * and drivers' ages across their ranges — price_offer over MCP answers exactly what POST /insurance/car/offers
 * answers, and explain_price's lines sum to the annual total that rounds to that price.
 */
import { ProductCatalogue } from "@kasko/core"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serviceWithPartners } from "../http/credentials.js"
import { call, httpClient } from "./support.js"

const CASES = 50

type ParameterDefinition = NonNullable<ReturnType<typeof ProductCatalogue.productDefinition>>["parameters"][number]

/** A parameter's values as a request sends them: an option's id, or a number in its range as digits. */
const valuesOf = (
  parameter: ParameterDefinition,
  document: ProductCatalogue.Catalogue["products"][number]
): fc.Arbitrary<string> => {
  if (parameter.type === "enum") return fc.constantFrom(...(parameter.options ?? []).map((option) => option.id))
  const bounds = document.parameters.find((candidate) => candidate.name === parameter.name)!
  return fc.integer({ min: bounds.minimum ?? 0, max: bounds.maximum ?? 1_000_000 }).map(String)
}

/** An offer request of one of the catalogue's products: its required parameters, and each optional number or not. */
const offerRequests = fc.oneof(
  ...ProductCatalogue.shipped.products.map((document) => {
    const definition = ProductCatalogue.productDefinition(document.product_name)!
    const parameters = definition.parameters.filter((parameter) => parameter.type !== "date")
    return fc
      .record({
        feature: fc.constantFrom(...definition.features.map((feature) => feature.name)),
        parameters: fc.record(
          Object.fromEntries(parameters.map((parameter) => [parameter.name, valuesOf(parameter, document)])),
          { requiredKeys: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name) }
        )
      })
      .map(({ feature, parameters }) => ({
        product: { product_name: document.product_name, parameters, features: [{ name: feature }] }
      }))
  })
)

const state = serviceWithPartners("mcp-offers", ["bilhuset"])
let client: Client
beforeAll(async () => {
  client = await httpClient(state.server.url, state.partners["bilhuset"]!.headers)
})
afterAll(() => client.close())

describe("price_offer over MCP against POST /insurance/car/offers", () => {
  it(`answers the same offer for ${CASES} generated cases, and explain_price's lines sum to its price`, async () => {
    let compared = 0
    await fc.assert(
      fc.asyncProperty(offerRequests, async (request) => {
        const rest = await state.client.request("POST", "/insurance/car/offers", {
          body: request,
          headers: state.partners["bilhuset"]!.headers
        })
        expect(rest.status).toBe(200)
        const offer = await call(client, "price_offer", request)
        expect(offer.structuredContent).toEqual(rest.body)
        const explanation = (await call(client, "explain_price", request)).structuredContent as {
          lines: Array<{ amount_ore: number }>
          annual_total_ore: number
          annually: number
          monthly: number
        }
        const total = explanation.lines.reduce((sum, line) => sum + line.amount_ore, 0)
        expect(total).toBe(explanation.annual_total_ore)
        // the annual price is the total in øre rounded half up to whole kroner
        expect(Math.floor((total + 50) / 100)).toBe(rest.body.price.annually)
        expect(explanation.annually).toBe(rest.body.price.annually)
        expect(explanation.monthly).toBe(rest.body.price.monthly)
        compared++
      }),
      { numRuns: CASES }
    )
    expect(compared).toBe(CASES)
  })
})
