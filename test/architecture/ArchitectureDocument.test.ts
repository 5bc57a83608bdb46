/**
 * ARCHITECTURE.md stays true to the packages: every workspace package is in
 * its drawing and its table, the table names exactly the `@kasko/…` packages
 * each package.json depends on, every path the page gives exists, and section
 * 3's list is the files one POST /insurance/car/quotes runs — measured on the
 * real service by `request-path-child.mjs`, not written from memory.
 */
import { execFile } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const page = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8")
const sectionOf = (number: number) => {
  const start = page.indexOf(`\n## ${number}. `)
  const end = page.indexOf("\n## ", start + 1)
  return page.slice(start, end === -1 ? undefined : end)
}

interface Workspace {
  readonly path: string
  readonly short: string
  readonly kaskoDependencies: ReadonlyArray<string>
}

const workspaces: ReadonlyArray<Workspace> = ["packages", "adapters"].flatMap((group) =>
  readdirSync(join(ROOT, group)).map((name) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, group, name, "package.json"), "utf8"))
    const named = {
      ...manifest.dependencies,
      ...manifest.peerDependencies,
      ...manifest.devDependencies
    } as Record<string, string>
    return {
      path: `${group}/${name}`,
      short: name,
      kaskoDependencies: Object.keys(named)
        .filter((dependency) => dependency.startsWith("@kasko/"))
        .map((dependency) => dependency.slice("@kasko/".length))
        .sort()
    }
  })
)

/** The table of section 1: the `@kasko/…` packages its "imports" cell names, by package path. */
const tableRows = (): Map<string, ReadonlyArray<string>> => {
  const shorts = new Set(workspaces.map((workspace) => workspace.short))
  const rows = new Map<string, ReadonlyArray<string>>()
  for (const match of sectionOf(1).matchAll(/^\| `((?:packages|adapters)\/[\w-]+)` +\| ([^|]*)\|/gm)) {
    const names = [...match[2]!.matchAll(/[\w-]+/g)].map((word) => word[0]).filter((word) => shorts.has(word))
    rows.set(match[1]!, [...new Set(names)].sort())
  }
  return rows
}

describe("ARCHITECTURE.md", () => {
  it("draws every package", () => {
    const drawing = /```\n([\s\S]*?)```/.exec(sectionOf(1))![1]!
    expect(workspaces.length).toBeGreaterThan(10)
    expect(workspaces.filter((workspace) => !new RegExp(`\\b${workspace.short}\\b`).test(drawing))).toEqual([])
  })

  it("names in its table exactly the @kasko packages each package.json depends on", () => {
    const rows = tableRows()
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries(workspaces.map((workspace) => [workspace.path, workspace.kaskoDependencies]))
    )
  })

  it("gives only paths that exist", () => {
    // `core/X.ts` and `packages/core/src/X.ts` explain the page's notation: not paths
    const given = [...page.matchAll(/`((?:packages|adapters|test|examples|bench|docs|core)\/[^`\s*<>]+)`/g)]
      .map((match) => match[1]!)
      .filter((path) => !path.endsWith("/X.ts"))
    const listed = [...sectionOf(3).matchAll(/(?:packages|adapters)\/\S+\.ts/g)].map((match) => match[0])
    expect(given.length).toBeGreaterThan(40)
    const missing = [...given, ...listed]
      .map((path) => (path!.startsWith("core/") ? `packages/core/src/${path!.slice("core/".length)}` : path!))
      .filter((path) => !existsSync(join(ROOT, path.replace(/[.,:;)]+$/, ""))))
    expect(missing).toEqual([])
  })

  it("lists in section 3 exactly the files one POST /insurance/car/quotes runs", { timeout: 60_000 }, async () => {
    const block = /```text\n([\s\S]*?)```/.exec(sectionOf(3))![1]!
    const listed = block
      .split(/\s+/)
      .filter((word) => word.endsWith(".ts"))
      .sort()
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(import.meta.dirname, "request-path-child.mjs")],
      { cwd: join(ROOT, "test") }
    )
    const ran: Array<string> = JSON.parse(stdout)
    expect(ran.length).toBeGreaterThan(20)
    expect(listed).toEqual(ran)
    expect(sectionOf(3)).toContain(`${ran.length} files`)
  })
})
