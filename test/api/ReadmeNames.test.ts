/**
 * Each package's README documents what its entries export: every top-level
 * name in test/api/exports (a namespace, a function, a type) is named in the
 * README of the package that exports it, so nothing public goes unexplained.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const EXPORTS = join(import.meta.dirname, "exports")

/** Package name → its folder, from every workspace package.json. */
const folders = new Map(
  ["packages", "adapters"].flatMap((group) =>
    readdirSync(join(ROOT, group)).flatMap((name) => {
      try {
        const manifest = JSON.parse(readFileSync(join(ROOT, group, name, "package.json"), "utf8"))
        return [[manifest.name as string, join(ROOT, group, name)] as const]
      } catch {
        return []
      }
    })
  )
)

const listed = readdirSync(EXPORTS).map((file) => {
  const rows = readFileSync(join(EXPORTS, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.split(/\s+/))
  return { file, rows }
})

describe("every package's README", () => {
  it.each(listed)("names each top-level export listed in $file", ({ rows }) => {
    const entry = rows[0]![0]!
    const packageName = entry.split("/").slice(0, 2).join("/")
    const folder = folders.get(packageName)
    expect(folder, `${packageName} has a folder`).toBeDefined()
    const readme = readFileSync(join(folder!, "README.md"), "utf8")
    const names = [...new Set(rows.map((row) => row[1]!).filter((name) => !name.includes(".")))]
    expect(names.length).toBeGreaterThan(0)
    const unnamed = names.filter((name) => !new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`).test(readme))
    expect(unnamed, `${dirname(join(folder!, "README.md"))}/README.md`).toEqual([])
  })
})
