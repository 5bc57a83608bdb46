/**
 * The server of one caller, with the SDK's own client over its in-memory transport: it lists the tools and
 * resources, answers a call with structured content and a short text, refuses arguments with the REST API's
 * violations as a tool error, answers an unknown tool with a JSON-RPC error, asks the caller for each tool's
 * scope, marks a sandbox key's answers as the sandbox's (production's unchanged), shows a partner limited to some
 * products only those, and reads a variant's IPID as text.
 */
import { AuthenticationRefused, Examples, IdGenerator, ProductCatalogue, QuoteStore, TariffBook } from "@kasko/core"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import type { Caller, ToolOutcome } from "../src/ToolCalls.js"
import { withSandboxEnvironment } from "../src/JsonSchemas.js"
import { catalogueShown } from "../src/ProductsShown.js"
import { INSTRUCTIONS, SANDBOX_INSTRUCTIONS, serverFor } from "../src/ToolServer.js"
import { TOOL_NAMES, type ToolServices, toolsOf } from "../src/Tools.js"

// offers, explanations, comparisons and resources touch no store: one that is never asked stands in for it
const runtime = ManagedRuntime.make(
  Layer.mergeAll(
    TariffBook.shipped,
    IdGenerator.layerSequential,
    Layer.succeed(QuoteStore.QuoteStore, {} as QuoteStore.QuoteStore["Service"])
  )
) as ManagedRuntime.ManagedRuntime<ToolServices, never>
afterAll(() => runtime.dispose())

const everyScope: Caller<never> = {
  transport: "stdio",
  environment: "production",
  authorize: () => Effect.succeed({ partnerId: "partner-a" })
}

const connected = async (caller: Caller<never> = everyScope, catalogue = ProductCatalogue.shipped) => {
  const calls: Array<[string, ToolOutcome]> = []
  const server = serverFor(catalogue, caller, (effect) => runtime.runPromise(effect), {
    version: "1.2.3",
    observer: { called: (tool, outcome) => calls.push([tool, outcome]) }
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: "test", version: "1" })
  await client.connect(clientSide)
  return { client, calls }
}

const textOf = (result: object) =>
  ((result as { content?: Array<{ text: string }> }).content ?? []).map((block) => block.text)

const resourceText = (read: { contents: ReadonlyArray<object> }) => (read.contents[0] as { text: string }).text

describe("the MCP server of one caller", () => {
  it("names itself and lists the seven tools with their schemas and hints", async () => {
    const { client } = await connected()
    expect(client.getServerVersion()).toMatchObject({ name: "kasko", version: "1.2.3" })
    expect(client.getInstructions()).toContain("activate_quote")
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES])
    expect(tools.find((tool) => tool.name === "price_offer")?.annotations).toMatchObject({ readOnlyHint: true })
    expect(tools.find((tool) => tool.name === "create_quote")?.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false
    })
  })

  it("answers a call with its structured content, valid by the output schema, and a short text", async () => {
    const { client, calls } = await connected()
    await client.listTools()
    const result = await client.callTool({ name: "price_offer", arguments: Examples.offerRequest() })
    expect(result.isError).toBeUndefined()
    expect(result.structuredContent).toMatchObject({ price: { annually: 7600, monthly: 665 } })
    expect(textOf(result)[0]).toMatch(/^insurance-car-leasing, standard feature: 7600 kr a year, or 665 kr a month/)
    expect(calls).toEqual([["price_offer", "ok"]])
  })

  it("refuses bad arguments as a tool error naming each field, with the violations as JSON", async () => {
    const { client, calls } = await connected()
    const request = Examples.offerRequest(Examples.standardParameters({ vehicle_price: "12", policy_holder: "cat" }))
    const result = await client.callTool({ name: "price_offer", arguments: request })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    const [sentence, json] = textOf(result)
    expect(sentence).toContain("- product.parameters.vehicle_price: must be between 1000 and 10000000")
    expect(sentence).toContain("- product.parameters.policy_holder: must be one of: person, organization")
    expect(JSON.parse(json!).violations).toEqual([
      { field: "product.parameters.policy_holder", message: "must be one of: person, organization" },
      { field: "product.parameters.vehicle_price", message: "must be between 1000 and 10000000" }
    ])
    expect(calls).toEqual([["price_offer", "refused"]])
  })

  it("answers a tool it does not have with a JSON-RPC error naming the tools it has", async () => {
    const { client } = await connected()
    await expect(client.callTool({ name: "buy_boat", arguments: {} })).rejects.toThrow(/price_offer/)
  })

  it("asks the caller for each tool's scope, and answers a refusal as a tool error naming the scope", async () => {
    const asked: Array<string> = []
    const offersOnly: Caller<never> = {
      transport: "http",
      environment: "production",
      authorize: (scope) => {
        asked.push(scope)
        return scope === "offers:create"
          ? Effect.succeed({ partnerId: "partner-a" })
          : Effect.fail(
              new AuthenticationRefused({
                reason: "insufficient_scope",
                description: `the token lacks the scope ${scope}`,
                scope
              })
            )
      }
    }
    const { client } = await connected(offersOnly)
    expect(
      (await client.callTool({ name: "explain_price", arguments: Examples.offerRequest() })).isError
    ).toBeUndefined()
    const refused = await client.callTool({ name: "get_quote", arguments: { quote_id: "q" } })
    expect(refused.isError).toBe(true)
    expect(textOf(refused)[0]).toContain("lacks the scope quotes:read")
    expect(asked).toEqual(["offers:create", "quotes:read"])
  })

  it("marks each answer to a sandbox key as the sandbox's, valid by the output schemas its session lists; production's as ever", async () => {
    const sandbox: Caller<never> = {
      transport: "http",
      environment: "sandbox",
      authorize: () => Effect.succeed({ partnerId: "sandbox:partner-a", environment: "sandbox" })
    }
    const { client } = await connected(sandbox)
    expect(client.getInstructions()).toBe(`${INSTRUCTIONS} ${SANDBOX_INSTRUCTIONS}`)
    // listed first: the client then checks each structured answer against its tool's output schema
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.outputSchema)).toEqual(
      toolsOf(ProductCatalogue.shipped).map((tool) => withSandboxEnvironment(tool.outputSchema))
    )
    const offer = Examples.offerRequest()
    for (const [name, args] of [
      ["get_product", { product_name: "insurance-car-leasing" }],
      ["price_offer", offer],
      ["explain_price", offer],
      ["compare_features", offer]
    ] as const) {
      const result = await client.callTool({ name, arguments: args })
      expect(result.isError, name).toBeUndefined()
      expect(result.structuredContent, name).toMatchObject({ environment: "sandbox" })
      expect(textOf(result)[0], name).toMatch(/^Sandbox \(a test, not production\): \S/)
    }

    const production = (await connected()).client
    expect(production.getInstructions()).toBe(INSTRUCTIONS)
    expect((await production.listTools()).tools.map((tool) => tool.outputSchema)).toEqual(
      toolsOf(ProductCatalogue.shipped).map((tool) => tool.outputSchema)
    )
    const answered = await production.callTool({ name: "price_offer", arguments: offer })
    expect(answered.structuredContent).not.toHaveProperty("environment")
    expect(textOf(answered)[0]).toMatch(/^insurance-car-leasing, standard feature/)
  })

  it("reads a product's titles in Danish, in English with language en, and refuses another language by name", async () => {
    const { client } = await connected()
    const read = (args: Record<string, unknown>) => client.callTool({ name: "get_product", arguments: args })
    const titleOf = (result: object) => (result as { structuredContent: { title: string } }).structuredContent.title
    expect(titleOf(await read({ product_name: "insurance-car-leasing" }))).toBe("Partnerbilforsikring, leasing")
    expect(titleOf(await read({ product_name: "insurance-car-leasing", language: "da" }))).toBe(
      "Partnerbilforsikring, leasing"
    )
    const english = await read({ product_name: "insurance-car-leasing", language: "en" })
    expect(titleOf(english)).toBe("Partner car insurance, leasing")
    expect(textOf(english)[0]).toContain("(Partner car insurance, leasing)")
    const refused = await read({ product_name: "insurance-car-leasing", language: "de" })
    expect(refused.isError).toBe(true)
    expect(textOf(refused).join("\n")).toContain("language")
  })

  it("shows a partner limited to some products only those, in its tools and resources, and refuses the others", async () => {
    const standaloneOnly: Caller<never> = {
      transport: "http",
      environment: "production",
      authorize: () => Effect.succeed({ partnerId: "partner-a", products: ["insurance-car-standalone"] })
    }
    const { client } = await connected(
      standaloneOnly,
      catalogueShown(ProductCatalogue.shipped, ["insurance-car-standalone"])
    )
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES])
    const listed = JSON.stringify(tools)
    expect(listed).toContain("insurance-car-standalone")
    expect(listed).not.toContain("insurance-car-leasing")
    const getProduct = tools.find((tool) => tool.name === "get_product")!
    expect(getProduct.inputSchema.properties?.["product_name"]).toEqual({
      anyOf: [{ type: "string", enum: ["insurance-car-standalone"] }],
      description: "The product"
    })
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri)).toEqual([
      "kasko://products/insurance-car-standalone",
      "kasko://products/insurance-car-standalone/variants/standard/ipid",
      "kasko://products/insurance-car-standalone/variants/extended/ipid"
    ])
    for (const uri of [
      "kasko://products/insurance-car-leasing",
      "kasko://products/insurance-car-leasing/variants/standard/ipid"
    ])
      await expect(client.readResource({ uri }), uri).rejects.toThrow(
        /No resource .*: No product is named "insurance-car-leasing": product_name is one of insurance-car-standalone\./
      )
    expect(
      JSON.parse(resourceText(await client.readResource({ uri: "kasko://products/insurance-car-standalone" })))
    ).toEqual(ProductCatalogue.productDefinition("insurance-car-standalone"))
    const refused = await client.callTool({ name: "price_offer", arguments: Examples.offerRequest() })
    expect(refused.isError).toBe(true)
    expect(JSON.parse(textOf(refused)[1]!).violations).toEqual([
      {
        field: "product.product_name",
        message: "is not available to this partner, which may sell: insurance-car-standalone"
      }
    ])
    const hidden = await client.callTool({ name: "get_product", arguments: { product_name: "insurance-car-leasing" } })
    expect(hidden.isError).toBe(true)
    expect(textOf(hidden)[0]).toContain("product_name is one of insurance-car-standalone.")
  })

  it("lists each product's definition and IPIDs, and reads an IPID as text", async () => {
    const { client } = await connected()
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri)).toContain(
      "kasko://products/insurance-car-standalone/variants/extended/ipid"
    )
    const read = await client.readResource({ uri: "kasko://products/insurance-car-leasing/variants/standard/ipid" })
    expect(read.contents[0]).toMatchObject({ mimeType: "text/plain" })
    expect(resourceText(read)).toContain("## Hvad dækker forsikringen?")
    const definition = await client.readResource({ uri: "kasko://products/insurance-car-leasing" })
    expect(JSON.parse(resourceText(definition))).toEqual(ProductCatalogue.productDefinition("insurance-car-leasing"))
    await expect(client.readResource({ uri: "kasko://products/insurance-boat" })).rejects.toThrow(/No resource/)
  })
})
