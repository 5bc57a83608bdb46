/**
 * Every package's `exports` map closes `./internal/*` (STYLE §8): what a package
 * keeps to itself cannot be imported by path, in the workspace or once published.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const manifests = ["packages", "adapters"].flatMap((group) =>
  readdirSync(join(ROOT, group)).map((name) => ({
    name: `${group}/${name}`,
    manifest: JSON.parse(readFileSync(join(ROOT, group, name, "package.json"), "utf8"))
  }))
)

describe("the packages' exports maps", () => {
  it.each(manifests)("$name closes ./internal/*", ({ manifest }) => {
    expect(manifest.exports["./internal/*"]).toBeNull()
    if (manifest.publishConfig?.exports !== undefined) expect(manifest.publishConfig.exports["./internal/*"]).toBeNull()
  })
})
