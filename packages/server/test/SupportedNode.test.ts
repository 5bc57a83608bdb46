/** The `kasko` command refuses a Node.js older than 22.19 with a reason, before anything fails less clearly. */
import { execFileSync, spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..", "..")
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

  it("is what every package's engines says, and what the command bundle targets", () => {
    const manifests = execFileSync("git", ["ls-files", "*package.json"], { cwd: ROOT, encoding: "utf8" })
      .trim()
      .split("\n")
    const engines = new Set(
      manifests.map(
        (file) => (JSON.parse(readFileSync(join(ROOT, file), "utf8")) as { engines?: { node?: string } }).engines?.node
      )
    )
    expect([...engines]).toEqual([">=22.19.0"])
    expect(readFileSync(join(ROOT, "packages", "server", "scripts", "bundle-cli.mjs"), "utf8")).toContain(
      'target: "node22.19"'
    )
  })

  it("is checked before the command imports anything but node:fs and the check", () => {
    const imports = [
      ...readFileSync(KASKO, "utf8").matchAll(/^import .* from "([^"]+)"/gm),
      ...readFileSync(join(import.meta.dirname, "..", "bin", "supported-node.mjs"), "utf8").matchAll(
        /^import .* from "([^"]+)"/gm
      )
    ].map((match) => match[1])
    expect(new Set(imports)).toEqual(new Set(["node:fs", "./supported-node.mjs"]))
  })
})
