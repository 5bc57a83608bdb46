/**
 * `kasko mcp --partner ID` with the SDK's own stdio client: the tool list; every tool, on the store the
 * administration commands use; bad arguments refused with their violations; one partner's session unable to read
 * another's quote; nothing on standard output but the protocol, and a log line per call on standard error; a
 * partner that is not there refused before anything is served.
 */
import { Examples } from "@kasko/core"
import { TOOL_NAMES } from "@kasko/mcp"
import { execFile } from "node:child_process"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addPartner, kasko } from "../http/credentials.js"
import { temporaryDirectory } from "../support.js"
import { call, type StdioSession, stdioClient, textsOf, violationsOf } from "./support.js"

const KASKO = join(import.meta.dirname, "..", "..", "packages", "server", "bin", "kasko.mjs")

const directory = temporaryDirectory("kasko-mcp-stdio-")
const sessions: Array<StdioSession> = []

const session = async (partner: string) => {
  const opened = await stdioClient(directory.path, partner)
  sessions.push(opened)
  return opened
}

beforeAll(async () => {
  await addPartner(directory.path, "bilhuset")
  await addPartner(directory.path, "autohuset")
  await addPartner(directory.path, "standalone-biler")
  await kasko(
    directory.path,
    "partners",
    "set-products",
    "--id",
    "standalone-biler",
    "--products",
    "insurance-car-standalone"
  )
}, 60_000)
afterAll(async () => {
  for (const opened of sessions) await opened.client.close()
  directory.remove()
})

describe("kasko mcp on stdio", () => {
  it("lists and sells only the products the partner may sell", async () => {
    const { client } = await session("standalone-biler")
    const listed = JSON.stringify((await client.listTools()).tools)
    expect(listed).toContain("insurance-car-standalone")
    expect(listed).not.toContain("insurance-car-leasing")
    const resources = (await client.listResources()).resources.map((resource) => resource.uri)
    expect(resources).toContain("kasko://products/insurance-car-standalone/variants/extended/ipid")
    expect(resources.filter((uri) => uri.includes("insurance-car-leasing"))).toEqual([])
    await expect(
      client.readResource({ uri: "kasko://products/insurance-car-leasing/variants/standard/ipid" })
    ).rejects.toThrow(/No resource/)
    const hidden = await call(client, "get_product", { product_name: "insurance-car-leasing" })
    expect(hidden.isError).toBe(true)
    const refused = await call(client, "create_quote", Examples.quoteRequest())
    expect(refused.isError).toBe(true)
    expect(violationsOf(refused)).toEqual([
      {
        field: "product.product_name",
        message: "is not available to this partner, which may sell: insurance-car-standalone"
      }
    ])
    expect((await call(client, "get_product", { product_name: "insurance-car-standalone" })).isError).not.toBe(true)
  })

  it("serves every tool as the partner, logging each call on standard error and writing only the protocol", async () => {
    const { client, logged, errors } = await session("bilhuset")
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES])
    const definition = await call(client, "get_product", { product_name: "insurance-car-leasing" })
    expect(definition.structuredContent).toMatchObject({ product_name: "insurance-car-leasing" })
    const offer = await call(client, "price_offer", Examples.offerRequest())
    expect(offer.structuredContent).toMatchObject({ price: { annually: 7600, monthly: 665 } })
    const explained = (await call(client, "explain_price", Examples.offerRequest())).structuredContent as {
      lines: Array<{ amount_ore: number }>
      annual_total_ore: number
    }
    expect(explained.lines.reduce((sum, line) => sum + line.amount_ore, 0)).toBe(explained.annual_total_ore)
    const compared = (await call(client, "compare_features", Examples.offerRequest())).structuredContent as {
      options: ReadonlyArray<unknown>
    }
    expect(compared.options).toHaveLength(4)
    const quote = (await call(client, "create_quote", Examples.quoteRequest())).structuredContent as {
      quote_id: string
    }
    expect((await call(client, "get_quote", quote)).structuredContent).toMatchObject({ status: "await_activation" })
    expect((await call(client, "activate_quote", quote)).structuredContent).toMatchObject({ status: "activated" })
    expect((await call(client, "get_quote", quote)).structuredContent).toMatchObject({
      status: "activated",
      quote_number: expect.any(String)
    })
    const read = await client.readResource({ uri: "kasko://products/insurance-car-standalone/variants/extended/ipid" })
    expect(read.contents[0]).toMatchObject({ mimeType: "text/plain" })
    expect(errors).toEqual([])
    const calls = await logged((line) => line["msg"] === "tool call", 8)
    expect(calls.map((line) => line["tool"])).toEqual([
      "get_product",
      "price_offer",
      "explain_price",
      "compare_features",
      "create_quote",
      "get_quote",
      "activate_quote",
      "get_quote"
    ])
    expect(calls.every((line) => line["transport"] === "stdio" && line["outcome"] === "ok")).toBe(true)
  })

  it("refuses bad arguments with their violations, and another partner's quote as not found", async () => {
    const bilhuset = (await session("bilhuset")).client
    const autohuset = (await session("autohuset")).client
    const refused = await call(
      bilhuset,
      "price_offer",
      Examples.offerRequest(Examples.standardParameters({ vehicle_usage: "racing" }))
    )
    expect(refused.isError).toBe(true)
    expect(violationsOf(refused)).toEqual([
      {
        field: "product.parameters.vehicle_usage",
        message:
          "must be one of: privat_person_koersel, godstransport_halv_omsaetning, godstransport, godstransport_erhverv, godstransport_privat/erhverv"
      }
    ])
    const quote = (await call(bilhuset, "create_quote", Examples.quoteRequest())).structuredContent as {
      quote_id: string
    }
    const hidden = await call(autohuset, "get_quote", quote)
    expect(hidden.isError).toBe(true)
    expect(textsOf(hidden)[0]).toContain("No quote")
  })

  it("refuses a partner that is not there, writing nothing on standard output", async () => {
    const ended = await promisify(execFile)(process.execPath, [KASKO, "mcp", "--partner", "nobody"], {
      env: { ...process.env, KASKO_DATA_DIR: directory.path }
    }).catch((error: { code: number; stdout: string; stderr: string }) => error)
    expect(ended).toMatchObject({ code: 1, stdout: "" })
    expect((ended as { stderr: string }).stderr).toContain("kasko mcp: no active partner nobody")
  })
})
