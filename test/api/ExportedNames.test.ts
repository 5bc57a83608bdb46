/**
 * Every package's public API as a list of names, read from its built type
 * declarations through each entry of its exports map, and compared with the
 * list committed under test/api/exports/. A new, renamed or removed export
 * fails this test until the list is updated (`npx vitest run test/api -u`),
 * so the change shows in review as a decision, not a side effect. Namespace
 * exports (`export * as Pricing`) are listed with their members, one level
 * deep, because that is where most of the surface is.
 */
import { readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const PACKAGE_FOLDERS = ["packages", "adapters"].flatMap((folder) =>
  readdirSync(join(ROOT, folder)).map((name) => join(ROOT, folder, name))
)

interface Entry {
  readonly specifier: string
  readonly declarations: string
}

/** The entries of a package's exports map that carry type declarations. */
const entriesOf = (folder: string): { name: string; entries: Array<Entry> } => {
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
    name: string
    exports: Record<string, unknown>
  }
  const entries: Array<Entry> = []
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (target === null || typeof target !== "object" || !("types" in target)) continue
    entries.push({
      specifier: `${manifest.name}${subpath.slice(1)}`,
      declarations: join(folder, (target as { types: string }).types)
    })
  }
  return { name: manifest.name, entries }
}

/** `export type { X }` exports only X's type, though X may also name a value where it is declared. */
const isTypeOnlyExport = (exported: ts.Symbol): boolean =>
  (exported.declarations ?? []).some(
    (declaration) =>
      ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly)
  )

const kindOf = (symbol: ts.Symbol): string => {
  const flags = symbol.flags
  if (flags & ts.SymbolFlags.Class) return "class"
  if (flags & ts.SymbolFlags.Function) return "function"
  if (flags & ts.SymbolFlags.Enum) return "enum"
  if (flags & ts.SymbolFlags.Variable)
    return flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Interface) ? "const+type" : "const"
  if (flags & ts.SymbolFlags.Interface) return "interface"
  if (flags & ts.SymbolFlags.TypeAlias) return "type"
  if (flags & ts.SymbolFlags.Module) return "namespace"
  return "other"
}

const PACKAGES = PACKAGE_FOLDERS.map(entriesOf)
// one program for every package's declarations: loading effect's types once, not once per package
const program = ts.createProgram(
  PACKAGES.flatMap(({ entries }) => entries.map((entry) => entry.declarations)),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true
  }
)
const checker = program.getTypeChecker()

/** "specifier name kind" lines of everything an entry exports, namespaces with their members. */
const exportedNames = (entries: ReadonlyArray<Entry>): Array<string> => {
  const lines: Array<string> = []
  for (const entry of entries) {
    const source = program.getSourceFile(entry.declarations)
    if (source === undefined) throw new Error(`${entry.declarations} is missing: build first (pnpm build)`)
    const module = checker.getSymbolAtLocation(source)
    if (module === undefined) continue
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const kind = isTypeOnlyExport(exported) ? "type" : kindOf(symbol)
      lines.push(`${entry.specifier}  ${exported.name}  ${kind}`)
      if (kind === "namespace") {
        for (const member of checker.getExportsOfModule(symbol)) {
          const resolved = member.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(member) : member
          lines.push(`${entry.specifier}  ${exported.name}.${member.name}  ${kindOf(resolved)}`)
        }
      }
    }
  }
  return lines.sort()
}

describe("the public API of every package", () => {
  for (const { name, entries } of PACKAGES) {
    it(`${name} exports exactly the names in test/api/exports`, async () => {
      const names = exportedNames(entries)
      expect(names.length).toBeGreaterThan(0)
      await expect(`${names.join("\n")}\n`).toMatchFileSnapshot(join("exports", `${name.replace("@kasko/", "")}.txt`))
    })
  }
})

describe("what is not exported", () => {
  const require = createRequire(import.meta.url)

  it.each([
    "@kasko/core/dist/src/pricing/Pricing.js",
    "@kasko/core/src/pricing/Pricing.ts",
    "@kasko/core/pricing/Pricing",
    "@kasko/express/dist/src/Dispatch.js"
  ])("cannot be imported: %s", (specifier) => {
    expect(() => require.resolve(specifier)).toThrow(expect.objectContaining({ code: "ERR_PACKAGE_PATH_NOT_EXPORTED" }))
  })

  it("while every subpath of the exports map resolves", () => {
    for (const subpath of ["", "/transport", "/storage", "/actuarial", "/administration"]) {
      expect(require.resolve(`@kasko/core${subpath}`)).toMatch(/packages[/\\]core[/\\]dist[/\\]src[/\\]/)
    }
  })
})
