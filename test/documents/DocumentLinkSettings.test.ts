/**
 * Where the document links point, as the service is configured: without KASKO_PUBLIC_URL the links to kasko's
 * own documents name http://localhost:PORT, which no customer can open — the service says so once, at start, as
 * a warning; it does not when a public URL is set, or when the insurer keeps both documents itself. A link URL
 * that is not one is refused by the commands that make links too (`kasko offer`), naming the variable.
 */
import { runCli } from "@kasko/server"
import { describe, expect, it } from "vitest"
import { startTestService } from "../http/support.js"

const WARN = 40

const warningsOf = (lines: ReadonlyArray<Record<string, unknown>>) =>
  lines.filter((line) => line["level"] === WARN && String(line["msg"]).includes("KASKO_PUBLIC_URL"))

const startedWith = async (environment: Record<string, string>) => {
  const service = await startTestService({ environment })
  await service.stop()
  return service
}

describe("the document links' configuration", () => {
  it("warns once at start that the links name localhost:PORT when KASKO_PUBLIC_URL is unset", async () => {
    const service = await startedWith({})
    const warnings = warningsOf(service.logLines)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!["msg"]).toContain(`http://localhost:${service.service.port}`)
    expect(warnings[0]!["msg"]).toContain("set KASKO_PUBLIC_URL")
  })

  it("names the base path in the warning, and warns while the insurer keeps only one of the documents", async () => {
    const service = await startedWith({
      KASKO_BASE_PATH: "/partner/car/v1",
      KASKO_PRIVACY_POLICY_URL: "https://insurer.example/privatliv"
    })
    const warnings = warningsOf(service.logLines)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!["msg"]).toContain(`http://localhost:${service.service.port}/partner/car/v1`)
  })

  it("does not warn with a public URL, nor when the insurer keeps both documents", async () => {
    expect(warningsOf((await startedWith({ KASKO_PUBLIC_URL: "https://api.insurer.example" })).logLines)).toEqual([])
    const insurers = await startedWith({
      KASKO_DOCUMENTS_BASE_URL: "https://documents.insurer.example/kasko",
      KASKO_PRIVACY_POLICY_URL: "https://insurer.example/privatliv"
    })
    expect(warningsOf(insurers.logLines)).toEqual([])
  })

  it("kasko offer refuses a link URL that is not one, naming the variable, exit code 2", async () => {
    for (const [variable, value] of [
      ["KASKO_PUBLIC_URL", "api.example.com"],
      ["KASKO_DOCUMENTS_BASE_URL", "javascript:alert(1)//"]
    ] as const) {
      process.env[variable] = value
      const result = await runCli(["offer"]).finally(() => delete process.env[variable])
      expect(result.exitCode, variable).toBe(2)
      expect(result.stderr).toContain(variable)
      expect(result.stderr).toContain("an http or https URL with no query, fragment or user info")
    }
  })
})
