/**
 * The gate client generators rely on: the served document passes Redocly's
 * recommended ruleset and Spectral's OpenAPI ruleset with no error — with the
 * partner API at the root and under a base path.
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
  const server = await startTestService({
    environment: { KASKO_PUBLIC_URL: "https://api.partner.kasko.example", ...environment }
  })
  try {
    return await (await fetch(`${server.url}${documentPath}`)).text()
  } finally {
    await server.stop()
  }
}

/** Runs a linter in the document's directory; answers its exit status and output. */
const lint = (command: string, args: ReadonlyArray<string>, cwd: string) => {
  const run = spawnSync(join(BIN, command), args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
  })
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` }
}

describe.each([
  ["at the root", {}, "/openapi.json"],
  ["under a base path", { KASKO_BASE_PATH: "/partner/car/v1" }, "/partner/car/v1/openapi.json"]
])("the served OpenAPI document, partner API %s", (_where, environment, documentPath) => {
  it("passes redocly lint with the recommended ruleset: no error", async () => {
    const cwd = join(directory.path, `redocly-${documentPath.length}`)
    mkdirSync(cwd, { recursive: true })
    writeFileSync(join(cwd, "openapi.json"), await servedDocument(environment, documentPath))
    const result = lint("redocly", ["lint", "openapi.json", "--extends", "recommended", "--format", "stylish"], cwd)
    expect(result.output).not.toMatch(/\berror\b/i)
    expect(result.status, result.output).toBe(0)
  }, 60_000)

  it("passes spectral lint with spectral:oas: no error", async () => {
    const cwd = join(directory.path, `spectral-${documentPath.length}`)
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
