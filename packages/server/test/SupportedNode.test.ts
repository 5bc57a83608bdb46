/** The `kasko` command refuses a Node.js older than 22.19 with a reason, before anything fails less clearly. */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const KASKO = join(import.meta.dirname, "..", "bin", "kasko.mjs")

/** Runs `kasko help` with `process.versions.node` reading `version`, as if on that Node. */
const runAs = (version: string) => {
  const pretend = `Object.defineProperty(process, "versions", { value: { ...process.versions, node: "${version}" } })`
  return spawnSync(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(pretend)}`, KASKO, "help"],
    {
      encoding: "utf8"
    }
  )
}

describe("the Node.js the kasko command runs on", () => {
  it.each(["20.20.2", "22.18.0", "18.20.8"])("refuses Node %s, naming the version it needs", (version) => {
    const result = runAs(version)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`kasko needs Node.js 22.19 or later (24 recommended); this is Node.js ${version}`)
    expect(result.stderr).toContain('eval "$(scripts/use-node 24)"')
    expect(result.stdout).toBe("")
  })

  it.each(["22.19.0", "24.21.0", "26.1.0"])("runs on Node %s", (version) => {
    const result = runAs(version)
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
    expect(result.stdout).toContain("kasko")
  })
})
