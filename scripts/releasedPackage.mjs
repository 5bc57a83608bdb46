// What a release publishes, and what a packed package must be before it is published: shared by `pnpm release`
// (scripts/release.mjs) and the install check that publishes to a throw-away registry (release-install-check.mjs).
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..")

/** Where the released packages live: the workspace's packages and adapters (bench, examples and test are private). */
const PACKAGE_FOLDERS = ["packages", "adapters"]

const manifestOf = (directory) => JSON.parse(readFileSync(join(directory, "package.json"), "utf8"))

const kaskoDependenciesOf = (manifest) =>
  Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((name) => name.startsWith("@kasko/"))

/**
 * Every package a release publishes — those not marked private — with its directory, name and version, each after
 * the `@kasko/…` packages it depends on, so that a registry never holds one whose dependency it lacks.
 */
export const publicPackages = () => {
  const found = PACKAGE_FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder))
      .map((name) => join(ROOT, folder, name))
      .filter((directory) => existsSync(join(directory, "package.json")))
      .map((directory) => ({ directory, manifest: manifestOf(directory) }))
      .filter(({ manifest }) => manifest.private !== true)
  )
  const byName = new Map(found.map((entry) => [entry.manifest.name, entry]))
  const ordered = []
  const visit = (entry, path) => {
    if (ordered.includes(entry)) return
    if (path.includes(entry)) throw new Error(`the packages depend on each other in a circle: ${entry.manifest.name}`)
    for (const name of kaskoDependenciesOf(entry.manifest)) {
      const dependency = byName.get(name)
      if (dependency === undefined) throw new Error(`${entry.manifest.name} depends on ${name}, which is not released`)
      visit(dependency, [...path, entry])
    }
    ordered.push(entry)
  }
  for (const entry of found.sort((a, b) => (a.manifest.name < b.manifest.name ? -1 : 1))) visit(entry, [])
  return ordered.map(({ directory, manifest }) => ({ directory, name: manifest.name, version: manifest.version }))
}

/** The files every package may carry beside those its `files` name. */
const ALWAYS_PACKED = new Set(["package.json", "README.md", "CHANGELOG.md", "LICENSE"])

/** Every string in an exports map or a bin, with the path of keys that leads to it. */
const targetsOf = (value, path = []) =>
  typeof value === "string"
    ? [{ path, target: value }]
    : value === null || typeof value !== "object"
      ? []
      : Object.entries(value).flatMap(([key, inner]) => targetsOf(inner, [...path, key]))

const filesUnder = (directory) =>
  readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

/**
 * What is wrong with a packed package (its tarball, as `pnpm pack` made it): a `workspace:` range or a "source"
 * export condition left in (they point into this repository), a file its `files` do not name, a file its exports
 * or bin name that is not in it. Empty when it may be published.
 */
export const checkPackedTarball = (tarball, released) => {
  const unpacked = mkdtempSync(join(tmpdir(), "kasko-packed-"))
  try {
    const untar = spawnSync("tar", ["-xzf", tarball, "-C", unpacked], { encoding: "utf8" })
    if (untar.status !== 0) return [`cannot unpack ${tarball}: ${untar.stderr}`]
    const root = join(unpacked, "package")
    const manifest = manifestOf(root)
    const problems = []
    if (manifest.name !== released.name || manifest.version !== released.version)
      problems.push(`is ${manifest.name}@${manifest.version}, not ${released.name}@${released.version}`)
    for (const field of ["dependencies", "peerDependencies", "optionalDependencies"])
      for (const [name, range] of Object.entries(manifest[field] ?? {}))
        if (String(range).startsWith("workspace:")) problems.push(`${field}.${name} is ${range}`)
    // publishConfig.exports stands in for exports when packed: the entries must be the same, less "source"
    const workspaceEntries = Object.keys(manifestOf(released.directory).exports ?? {}).sort()
    const packedEntries = Object.keys(manifest.exports ?? {}).sort()
    if (JSON.stringify(workspaceEntries) !== JSON.stringify(packedEntries))
      problems.push(
        `exports ${packedEntries.join(", ")} when packed, not the workspace's ${workspaceEntries.join(", ")}`
      )
    for (const { path, target } of [...targetsOf(manifest.exports), ...targetsOf(manifest.bin)]) {
      if (path.includes("source")) problems.push(`exports ${path.join(" → ")} is a "source" condition (${target})`)
      if (!target.includes("*") && !existsSync(join(root, target)))
        problems.push(`${path.join(" → ") || "bin"} names ${target}, which is not in the package`)
    }
    const named = (manifest.files ?? []).map((entry) => entry.replace(/\/$/, ""))
    for (const file of filesUnder(root).map((path) => relative(root, path))) {
      const allowed = ALWAYS_PACKED.has(file) || named.some((entry) => file === entry || file.startsWith(`${entry}/`))
      if (!allowed) problems.push(`holds ${file}, which its files do not name`)
    }
    return problems
  } finally {
    rmSync(unpacked, { recursive: true, force: true })
  }
}
