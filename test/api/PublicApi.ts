/**
 * The public API of the released packages as the TypeScript compiler sees it: each entry of a package's exports map
 * that carries type declarations, and every name that entry exports (namespaces with their members, one level deep),
 * read from the built declarations. `ExportedNames.test.ts` lists the names; `DocComments.test.ts` reads their doc
 * comments.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import ts from "typescript"

const ROOT = join(import.meta.dirname, "..", "..")

/** The packages a release publishes: those under packages/ and adapters/ not marked private, as in scripts/releasedPackage.mjs. */
const PUBLIC_FOLDERS = ["packages", "adapters"]
  .flatMap((group) => readdirSync(join(ROOT, group)).map((name) => join(ROOT, group, name)))
  .filter((folder) => JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).private !== true)

export interface Entry {
  readonly specifier: string
  readonly declarations: string
}

export interface PublicPackage {
  readonly name: string
  readonly folder: string
  readonly entries: ReadonlyArray<Entry>
}

/** A package and the entries of its exports map that carry type declarations. */
const packageOf = (folder: string): PublicPackage => {
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
  return { name: manifest.name, folder, entries }
}

export const PUBLIC_PACKAGES: ReadonlyArray<PublicPackage> = PUBLIC_FOLDERS.map(packageOf)

// one program for every package's declarations: loading effect's types once, not once per package
const program = ts.createProgram(
  PUBLIC_PACKAGES.flatMap(({ entries }) => entries.map((entry) => entry.declarations)),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true
  }
)
export const checker = program.getTypeChecker()

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

const resolved = (symbol: ts.Symbol): ts.Symbol =>
  symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol

/** One name an entry exports: `Quote`, or a namespace's member as `ProductCatalogue.withProducts`. */
export interface ExportedName {
  readonly specifier: string
  readonly name: string
  readonly kind: string
  /** The symbol as the entry (or the namespace) exports it: an alias when it is re-exported. */
  readonly exported: ts.Symbol
  /** What the name stands for where it is declared. */
  readonly symbol: ts.Symbol
}

/** Everything an entry exports, namespaces with their members, in the order of "specifier  name  kind" lines. */
export const exportedNames = (entries: ReadonlyArray<Entry>): Array<ExportedName> => {
  const names: Array<ExportedName> = []
  for (const entry of entries) {
    const source = program.getSourceFile(entry.declarations)
    if (source === undefined) throw new Error(`${entry.declarations} is missing: build first (pnpm build)`)
    const module = checker.getSymbolAtLocation(source)
    if (module === undefined) continue
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = resolved(exported)
      const kind = isTypeOnlyExport(exported) ? "type" : kindOf(symbol)
      names.push({ specifier: entry.specifier, name: exported.name, kind, exported, symbol })
      if (kind === "namespace") {
        for (const member of checker.getExportsOfModule(symbol)) {
          const memberSymbol = resolved(member)
          names.push({
            specifier: entry.specifier,
            name: `${exported.name}.${member.name}`,
            kind: kindOf(memberSymbol),
            exported: member,
            symbol: memberSymbol
          })
        }
      }
    }
  }
  return names.sort((a, b) => {
    const left = lineOf(a)
    const right = lineOf(b)
    return left < right ? -1 : left > right ? 1 : 0
  })
}

/** The line test/api/exports lists a name as. */
export const lineOf = ({ specifier, name, kind }: ExportedName): string => `${specifier}  ${name}  ${kind}`
