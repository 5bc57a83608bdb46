/**
 * The gate client generators rely on: the served document passes Redocly's
 * recommended ruleset with no error and no warning, and Spectral's OpenAPI
 * ruleset with no error — with no public URL configured (the default), and
 * with one, the partner API at the root and under a base path. Both linters
 * run offline: the rulesets are their packages' own.
 */
import { spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import { startTestService } from "./support.js"

const BIN = join(import.meta.dirname, "..", "node_modules", ".bin")
const directory = temporaryDirectory("kasko-lint-")
afterAll(() => directory.remove())

const servedDocument = async (environment: Record<string, string>, documentPath: string) => {
  const server = await startTestService({ environment })
  try {
    return await (await fetch(`${server.url}${documentPath}`)).text()
  } finally {
    await server.stop()
  }
}

/** Runs a linter in the document's directory; answers its exit status, what it printed, and that with its errors. */
const lint = (command: string, args: ReadonlyArray<string>, cwd: string) => {
  const run = spawnSync(join(BIN, command), args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
  })
  return { status: run.status, stdout: run.stdout, output: `${run.stdout}\n${run.stderr}` }
}

const PUBLIC_URL = "https://api.partner.kasko.example"

/** Redocly's findings, one line each: rule, severity, where. */
interface RedoclyReport {
  readonly totals: { readonly errors: number; readonly warnings: number }
  readonly problems: ReadonlyArray<{
    readonly ruleId: string
    readonly severity: string
    readonly location: ReadonlyArray<{ readonly pointer: string }>
  }>
}

describe.each([
  ["with no public URL, partner API at the root", "default", {}, "/openapi.json"],
  ["partner API at the root", "root", { KASKO_PUBLIC_URL: PUBLIC_URL }, "/openapi.json"],
  [
    "partner API under a base path",
    "base-path",
    { KASKO_PUBLIC_URL: PUBLIC_URL, KASKO_BASE_PATH: "/partner/car/v1" },
    "/partner/car/v1/openapi.json"
  ]
])("the served OpenAPI document, %s", (_where, setup, environment, documentPath) => {
  it("passes redocly lint with the recommended ruleset: no error, no warning", async () => {
    const cwd = join(directory.path, `redocly-${setup}`)
    mkdirSync(cwd, { recursive: true })
    writeFileSync(join(cwd, "openapi.json"), await servedDocument(environment, documentPath))
    const result = lint("redocly", ["lint", "openapi.json", "--extends", "recommended", "--format", "json"], cwd)
    const report = JSON.parse(result.stdout) as RedoclyReport
    expect(
      report.problems.map((problem) => `${problem.ruleId} (${problem.severity}) at ${problem.location[0]?.pointer}`)
    ).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    expect(result.status, result.output).toBe(0)
  }, 60_000)

  it("passes spectral lint with spectral:oas: no error", async () => {
    const cwd = join(directory.path, `spectral-${setup}`)
    mkdirSync(cwd, { recursive: true })
    writeFileSync(join(cwd, "openapi.json"), await servedDocument(environment, documentPath))
    copyFileSync(join(import.meta.dirname, "lint", "spectral.yaml"), join(cwd, ".spectral.yaml"))
    const result = lint(
      "spectral",
      ["lint", "openapi.json", "--ruleset", ".spectral.yaml", "--fail-severity", "error"],
      cwd
    )
    expect(result.output).not.toMatch(/\d+ errors?[,)]/)
    expect(result.status, result.output).toBe(0)
  }, 60_000)
})
