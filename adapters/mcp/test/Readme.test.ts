/**
 * The README's tool list is the one a client reads: each tool's name, title, scope, arguments and sizes in a table,
 * and each one's description and input schema as the SDK's client lists them.
 */
import { IdGenerator, ProductCatalogue, QuoteStore, TariffBook } from "@kasko/core"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { Effect, Layer, ManagedRuntime } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import type { Caller } from "../src/ToolCalls.js"
import { serverFor } from "../src/ToolServer.js"
import { type ToolServices, toolsOf } from "../src/Tools.js"

const README_PATH = join(import.meta.dirname, "..", "README.md")
const README = readFileSync(README_PATH, "utf8")

it("lists every tool as tools/list gives it for the shipped products", () => {
  const table = README.slice(README.indexOf("<!-- tools:start -->"), README.indexOf("<!-- tools:end -->"))
  const rows = table
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim())
    )
  expect(rows).toEqual(
    toolsOf(ProductCatalogue.shipped).map((tool) => [
      `\`${tool.name}\``,
      tool.title,
      `\`${tool.scope}\``,
      Object.keys(tool.inputSchema["properties"] as object)
        .map((name) => `\`${name}\``)
        .join(", "),
      String(JSON.stringify(tool.inputSchema).length),
      String(tool.description.length)
    ])
  )
})

/** The tools as a client lists them (the SDK's own client, in memory), each with its description and input schema. */
const listedTools = async () => {
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(
      TariffBook.shipped,
      IdGenerator.layerSequential,
      Layer.succeed(QuoteStore.QuoteStore, {} as QuoteStore.QuoteStore["Service"])
    )
  ) as ManagedRuntime.ManagedRuntime<ToolServices, never>
  const caller: Caller<never> = {
    transport: "stdio",
    environment: "production",
    authorize: () => Effect.succeed({ partnerId: "partner-a" })
  }
  const server = serverFor(ProductCatalogue.shipped, caller, (effect) => runtime.runPromise(effect), {
    version: "0.0.0"
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: "readme", version: "1" })
  await client.connect(clientSide)
  const { tools } = await client.listTools()
  await client.close()
  await runtime.dispose()
  return tools
}

type Listed = Awaited<ReturnType<typeof listedTools>>[number]

/** An input schema shown once: a tool whose schema an earlier tool has names that tool. */
const sameInputAs = (tools: ReadonlyArray<Listed>, index: number): string | undefined =>
  tools
    .slice(0, index)
    .find((earlier) => JSON.stringify(earlier.inputSchema) === JSON.stringify(tools[index]!.inputSchema))?.name

/** The listing as the README shows it: per tool its name, title, hints, description and input schema. */
const rendered = (tools: ReadonlyArray<Listed>) =>
  tools
    .map((tool, index) => {
      const same = sameInputAs(tools, index)
      return [
        `#### \`${tool.name}\` — ${tool.title}`,
        "",
        `Annotations: \`${JSON.stringify(tool.annotations)}\``,
        "",
        "```text",
        tool.description,
        "```",
        "",
        ...(same === undefined
          ? ["```json", JSON.stringify(tool.inputSchema, null, 2), "```"]
          : [`Input schema: \`${same}\`'s.`])
      ].join("\n")
    })
    .join("\n\n")

/** The listing read back from the README, as the values it shows (its blocks formatted as Biome formats them). */
const shown = (text: string) =>
  [
    ...text.matchAll(
      /^#### `([a-z_]+)` — (.+)\n\nAnnotations: `(.+)`\n\n```text\n([\s\S]*?)\n```\n\n(?:```json\n([\s\S]*?)\n```|Input schema: `([a-z_]+)`'s\.)/gm
    )
  ].map((match) => ({
    name: match[1],
    title: match[2],
    annotations: JSON.parse(match[3]!),
    description: match[4],
    inputSchema: match[5] === undefined ? { sameAs: match[6] } : JSON.parse(match[5])
  }))

const START = "<!-- tools-list:start -->"
const END = "<!-- tools-list:end -->"

it("shows every tool's description and input schema as a client lists them", async () => {
  const tools = await listedTools()
  const start = README.indexOf(START) + START.length
  const end = README.indexOf(END)
  expect(end).toBeGreaterThan(start)
  // KASKO_RECORD_MCP_TOOLS=1 writes the listing into the README (after a change to the tools, read the diff)
  if (process.env["KASKO_RECORD_MCP_TOOLS"] === "1") {
    writeFileSync(README_PATH, `${README.slice(0, start)}\n\n${rendered(tools)}\n\n${README.slice(end)}`)
    return
  }
  expect(shown(README.slice(start, end))).toEqual(
    tools.map((tool, index) => {
      const same = sameInputAs(tools, index)
      return {
        name: tool.name,
        title: tool.title,
        annotations: tool.annotations,
        description: tool.description,
        inputSchema: same === undefined ? tool.inputSchema : { sameAs: same }
      }
    })
  )
})
