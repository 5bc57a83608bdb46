/**
 * A package's published type declarations name only what installing that
 * package brings: every package a reachable `.d.ts` imports is a dependency
 * or peer dependency, and when that package ships no types of its own, its
 * `@types/…` package is a dependency too (a devDependency is absent from an
 * embedder's install, and their compiler would fail on our declarations).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const PACKAGE_FOLDERS = ["packages", "adapters"].flatMap((group) =>
  readdirSync(join(ROOT, group)).map((name) => join(ROOT, group, name))
)

interface Manifest {
  readonly name: string
  readonly exports: Record<string, unknown>
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
}

const manifestOf = (folder: string): Manifest =>
  JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Manifest

const SPECIFIER = /(?:from|import)\s*\(?\s*"([^"]+)"/g

/** Every declaration file an entry's declarations reach through relative imports. */
const reachableDeclarations = (entries: ReadonlyArray<string>): Set<string> => {
  const seen = new Set<string>()
  const pending = [...entries]
  while (pending.length > 0) {
    const file = pending.pop()!
    if (seen.has(file) || !existsSync(file)) continue
    seen.add(file)
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (specifier!.startsWith(".")) pending.push(resolve(dirname(file), specifier!.replace(/\.js$/, ".d.ts")))
    }
  }
  return seen
}

const packageNameOf = (specifier: string): string => {
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!
}

const COMPILER_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext
}

/** The package the compiler takes a specifier's types from: the package itself, or its @types/… package. */
const typesPackageOf = (specifier: string, fromFile: string): string | undefined => {
  const resolved = ts.resolveModuleName(specifier, fromFile, COMPILER_OPTIONS, ts.sys).resolvedModule
  if (resolved === undefined) return undefined
  const typesPackage = /node_modules\/(@types\/[^/]+)\//.exec(resolved.resolvedFileName)
  return typesPackage?.[1] ?? packageNameOf(specifier)
}

describe("published declarations need nothing an install lacks", () => {
  for (const folder of PACKAGE_FOLDERS) {
    const manifest = manifestOf(folder)
    it(manifest.name, () => {
      const entries = Object.values(manifest.exports)
        .filter(
          (target): target is { types: string } => typeof target === "object" && target !== null && "types" in target
        )
        .map((target) => join(folder, target.types))
      const declarations = reachableDeclarations(entries)
      expect(declarations.size).toBeGreaterThan(0)
      const installed = new Set([
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {})
      ])
      const missing: Array<string> = []
      for (const file of declarations) {
        for (const [, specifier] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
          if (specifier!.startsWith(".") || specifier!.startsWith("node:")) continue
          const name = packageNameOf(specifier!)
          if (name === manifest.name) continue
          const types = typesPackageOf(specifier!, file)
          if (!installed.has(name)) missing.push(`${name} (in ${file.slice(folder.length + 1)})`)
          else if (types === undefined) missing.push(`types of ${specifier} (not found)`)
          else if (!installed.has(types)) missing.push(`${types} (for ${name})`)
        }
      }
      expect([...new Set(missing)]).toEqual([])
    })
  }
})
