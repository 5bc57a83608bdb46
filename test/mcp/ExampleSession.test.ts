/**
 * The recorded example session of the READMEs (issue 46): an agent pricing, explaining and quoting for a customer
 * over /mcp, with the SDK's client — a price it sent wrong and corrected, the price explained, the features
 * compared, the quote made, read and activated. The READMEs show what the service answered; this test replays the
 * session and holds them to what it answers now (ids, dates and the port aside). Record them again with
 * `KASKO_RECORD_MCP_SESSION=1 npx vitest run test/mcp/ExampleSession.test.ts`.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serviceWithPartners } from "../http/credentials.js"
import { call, httpClient, textsOf } from "./support.js"

const ROOT = join(import.meta.dirname, "..", "..")
const ADAPTER_README = join(ROOT, "adapters", "mcp", "README.md")
const ROOT_README = join(ROOT, "README.md")
const QUOTE_REQUEST = JSON.parse(readFileSync(join(ROOT, "examples", "requests", "quote.json"), "utf8"))

// the customer's case: a leasing car of 350 000 kr, driven by the customer (youngest driver 23), paid monthly
const PARAMETERS = {
  ...QUOTE_REQUEST.product.parameters,
  payments_per_year: "12",
  vehicle_price: "350000",
  youngest_user_age: "23"
}
const caseWith = (feature: string, parameters: Record<string, string> = PARAMETERS) => ({
  product: { product_name: "insurance-car-leasing", parameters, features: [{ name: feature }] }
})

interface Step {
  readonly tool: string
  readonly arguments: Record<string, unknown>
  /** How the root README names the arguments, where they are too long to show. */
  readonly named?: string
  readonly answer: ReadonlyArray<string>
  readonly isError: boolean
}

const state = serviceWithPartners("mcp-session", ["bilhuset"])
const steps: Array<Step> = []

beforeAll(async () => {
  const client = await httpClient(state.server.url, state.partners["bilhuset"]!.headers)
  const step = async (tool: string, args: Record<string, unknown>, named?: string) => {
    const result = await call(client, tool, args)
    steps.push({
      tool,
      arguments: args,
      ...(named === undefined ? {} : { named }),
      answer: textsOf(result).slice(0, 1),
      isError: result.isError === true
    })
    return result
  }
  await step("get_product", { product_name: "insurance-car-leasing" })
  await step("price_offer", caseWith("standard", { ...PARAMETERS, vehicle_price: "350.000 kr" }))
  await step("price_offer", caseWith("standard"))
  await step("explain_price", caseWith("standard"), "the same case")
  await step("compare_features", caseWith("standard"), "the same case")
  const created = await step(
    "create_quote",
    { ...QUOTE_REQUEST, ...caseWith("premium") },
    "examples/requests/quote.json, with the case's parameters and the premium feature"
  )
  const quoteId = (created.structuredContent as { quote_id: string }).quote_id
  await step("get_quote", { quote_id: quoteId })
  await step("activate_quote", { quote_id: quoteId })
  await client.close()
})

/** Arguments on one line when short, else indented; the same as the call before's said so. */
const argumentsText = (args: Record<string, unknown>, before: Step | undefined) => {
  const line = JSON.stringify(args)
  if (before !== undefined && JSON.stringify(before.arguments) === line) return "  (the same arguments)"
  return line.length <= 400 ? `  ${line}` : JSON.stringify(args, null, 2).replace(/^/gm, "  ")
}

const rendered = (step: Step, before: Step | undefined, short: boolean) =>
  [
    `agent → ${step.tool}`,
    short && step.named !== undefined ? `  (${step.named})` : argumentsText(step.arguments, before),
    `kasko ← ${step.isError ? "tool error (isError)" : "structured content, and for the model:"}`,
    ...step.answer.flatMap((text) => text.split("\n")).map((line) => `  ${line}`)
  ].join("\n")

/** The session as the adapter's README shows it (every step), or the root README (the steps it names, shorter). */
const transcript = (short: boolean) =>
  steps
    .filter((step) => !short || ["price_offer", "explain_price", "create_quote", "activate_quote"].includes(step.tool))
    .map((step, index, shown) => rendered(step, shown[index - 1], short))
    .join("\n\n")

const MARKERS = { adapter: "session", root: "mcp-session" } as const

const blockIn = (text: string, marker: string) => {
  const start = text.indexOf(`<!-- ${marker}:start -->`)
  const end = text.indexOf(`<!-- ${marker}:end -->`)
  if (start < 0 || end < 0) throw new Error(`no <!-- ${marker}:start --> … <!-- ${marker}:end --> block`)
  return { start: start + `<!-- ${marker}:start -->`.length, end }
}

const fenced = (session: string) => `\n\n\`\`\`text\n${session}\n\`\`\`\n\n`

/** What changes from run to run: ids, dates and times, the service's port. */
const normalized = (text: string) =>
  text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>")
    .replace(/\b20\d{2}-\d{2}-\d{2}\b/g, "<date>")
    .replace(/http:\/\/(localhost|127\.0\.0\.1):\d+/g, "<service>")

const recording = process.env["KASKO_RECORD_MCP_SESSION"] === "1"

afterAll(() => {
  if (!recording) return
  for (const [file, marker, short] of [
    [ADAPTER_README, MARKERS.adapter, false],
    [ROOT_README, MARKERS.root, true]
  ] as const) {
    const text = readFileSync(file, "utf8")
    const { start, end } = blockIn(text, marker)
    writeFileSync(file, `${text.slice(0, start)}${fenced(transcript(short))}${text.slice(end)}`)
  }
})

describe("the READMEs' recorded MCP session", () => {
  it("is what the service answers an agent pricing, explaining and quoting for a customer", () => {
    expect(steps.map((step) => `${step.tool}${step.isError ? " (error)" : ""}`)).toEqual([
      "get_product",
      "price_offer (error)",
      "price_offer",
      "explain_price",
      "compare_features",
      "create_quote",
      "get_quote",
      "activate_quote"
    ])
    if (recording) return
    for (const [file, marker, short] of [
      [ADAPTER_README, MARKERS.adapter, false],
      [ROOT_README, MARKERS.root, true]
    ] as const) {
      const text = readFileSync(file, "utf8")
      const { start, end } = blockIn(text, marker)
      expect(normalized(text.slice(start, end)), file).toBe(normalized(fenced(transcript(short))))
    }
  })
})
