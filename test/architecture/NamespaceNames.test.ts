/**
 * A namespace an entry exports is named as its file: `QuoteEvents` comes from
 * `QuoteEvents.ts`, so a reader who meets the name in code finds the module by it.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const WORKSPACES = ["packages", "adapters"].flatMap((group) =>
  readdirSync(join(ROOT, group)).map((name) => join(ROOT, group, name, "src"))
)

/** Every `export * as Name from "./path/File.js"` in a workspace's top-level source files, as `file: Name ← File`. */
const namespaceExports = () =>
  WORKSPACES.flatMap((source) => {
    let entries: Array<string>
    try {
      entries = readdirSync(source).filter((file) => file.endsWith(".ts"))
    } catch {
      return []
    }
    return entries.flatMap((file) =>
      [...readFileSync(join(source, file), "utf8").matchAll(/export \* as (\w+) from "[^"]*?(\w+)\.js"/g)].map(
        (match) => ({ at: `${source.slice(ROOT.length + 1)}/${file}`, name: match[1]!, module: match[2]! })
      )
    )
  })

describe("exported namespaces", () => {
  it("are named as the files they come from", () => {
    const found = namespaceExports()
    expect(found.length).toBeGreaterThan(40)
    expect(
      found.filter(({ name, module }) => name !== module).map(({ at, name, module }) => `${at}: ${name} ← ${module}.ts`)
    ).toEqual([])
  })
})
