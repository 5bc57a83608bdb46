/**
 * Issue 46, must-show 3: the MCP conformance suite (@modelcontextprotocol/conformance) against the service's
 * /mcp, every server scenario that applies passing every check; and every server scenario the suite lists is in
 * the table of @kasko/mcp's README, as passing or with the reason it does not apply — a scenario a newer suite adds
 * fails this test until it is placed. The suite's client sends no credentials, so the service runs with the test
 * Authentication, which admits every caller as one partner: the credentials are held by McpOverHttp.test.ts.
 */
import { execFile } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestService, type TestService } from "../http/support.js"
import { temporaryDirectory } from "../support.js"

const SUITE = join(
  import.meta.dirname,
  "..",
  "node_modules",
  "@modelcontextprotocol",
  "conformance",
  "dist",
  "index.js"
)
const README = join(import.meta.dirname, "..", "..", "adapters", "mcp", "README.md")

const run = (...args: Array<string>) => promisify(execFile)(process.execPath, [SUITE, ...args])

/** The README's table of server scenarios: each scenario's row, "passes" or the reason it does not apply. */
const tableOfReadme = (): Map<string, string> => {
  const text = readFileSync(README, "utf8")
  const table = text.slice(text.indexOf("<!-- conformance:start -->"), text.indexOf("<!-- conformance:end -->"))
  return new Map(
    [...table.matchAll(/^\| `([a-z0-9-]+)` +\| ([^|]+?) +\|/gm)].map((match) => [match[1]!, match[2]!.trim()])
  )
}

interface Check {
  readonly id: string
  readonly status: string
  readonly errorMessage?: string
}

let service: TestService
const output = temporaryDirectory("kasko-conformance-")
beforeAll(async () => {
  service = await startTestService()
})
afterAll(async () => {
  await service.stop()
  output.remove()
})

describe("the MCP conformance suite against /mcp", () => {
  it("has every server scenario it lists in the README's table", async () => {
    const listed = (await run("list")).stdout.split("Client scenarios")[0]!
    const scenarios = [...listed.matchAll(/^\s+- ([a-z0-9-]+) /gm)].map((match) => match[1]!)
    expect(scenarios.length).toBeGreaterThan(20)
    expect([...tableOfReadme().keys()].sort()).toEqual([...scenarios].sort())
  })

  it("passes every check of every scenario that applies", async () => {
    const applying = [...tableOfReadme()].filter(([, result]) => result === "passes").map(([scenario]) => scenario)
    expect(applying).toEqual(
      expect.arrayContaining(["server-initialize", "ping", "tools-list", "resources-list", "dns-rebinding-protection"])
    )
    for (const scenario of applying) {
      const directory = join(output.path, scenario)
      await run("server", "--url", `${service.url}/mcp`, "--scenario", scenario, "-o", directory)
      const [results] = readdirSync(directory)
      const checks = JSON.parse(readFileSync(join(directory, results!, "checks.json"), "utf8")) as Array<Check>
      expect(checks.length, scenario).toBeGreaterThan(0)
      expect(
        checks.filter((check) => check.status !== "SUCCESS"),
        scenario
      ).toEqual([])
    }
  })
})
