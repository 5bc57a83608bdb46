/**
 * Every package's `exports` map closes `./internal/*` (STYLE §8): what a package
 * keeps to itself cannot be imported by path, in the workspace or once published.
 * And it opens nothing but its public entries: an entry with type declarations
 * (whose names test/api/exports lists and test/api/DocComments.test.ts finds
 * documented), a file or folder of data its README names (`@kasko/core/tariffs/*`),
 * or `./package.json`. That a built file cannot be imported by path is
 * test/api/ExportedNames.test.ts's "what is not exported".
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const manifests = ["packages", "adapters"].flatMap((group) =>
  readdirSync(join(ROOT, group)).map((name) => ({
    name: `${group}/${name}`,
    folder: join(ROOT, group, name),
    manifest: JSON.parse(readFileSync(join(ROOT, group, name, "package.json"), "utf8"))
  }))
)

/** What is wrong with one entry of a package's exports map: empty when it is a public entry or closes one. */
const problemOf = (packageName: string, readme: string, subpath: string, target: unknown): Array<string> => {
  if (subpath === "./internal/*") return target === null ? [] : [`${subpath} is open`]
  if (subpath === "./package.json") return []
  if (typeof target === "object" && target !== null && "types" in target) return []
  const specifier = `${packageName}${subpath.slice(1)}`
  return readme.includes(`\`${specifier}\``) ? [] : [`${specifier} is neither typed nor named in the README`]
}

describe("the packages' exports maps", () => {
  it.each(manifests)("$name closes ./internal/*", ({ manifest }) => {
    expect(manifest.exports["./internal/*"]).toBeNull()
    if (manifest.publishConfig?.exports !== undefined) expect(manifest.publishConfig.exports["./internal/*"]).toBeNull()
  })

  it.each(manifests.filter(({ manifest }) => manifest.private !== true))(
    "$name opens only its public entries",
    ({ folder, manifest }) => {
      const readme = readFileSync(join(folder, "README.md"), "utf8")
      const maps = [manifest.exports, manifest.publishConfig?.exports ?? {}] as Array<Record<string, unknown>>
      const problems = maps.flatMap((map) =>
        Object.entries(map).flatMap(([subpath, target]) => problemOf(manifest.name, readme, subpath, target))
      )
      expect([...new Set(problems)]).toEqual([])
    }
  )
})
