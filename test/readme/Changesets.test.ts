/**
 * Every changeset is one the changesets tool can read: YAML front matter
 * naming workspace packages and their bump, then the change in prose; and
 * those released are in each public package's changelog, under its version. (Biome's
 * Markdown formatter once read the front matter as a heading and rewrote it:
 * .changeset/*.md are kept out of its reach, and this test holds them.)
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const CHANGESETS = join(ROOT, ".changeset")

const workspacePackages = new Set(
  ["packages", "adapters"].flatMap((folder) =>
    readdirSync(join(ROOT, folder)).map(
      (name) => (JSON.parse(readFileSync(join(ROOT, folder, name, "package.json"), "utf8")) as { name: string }).name
    )
  )
)

const FRONT_MATTER = /^---\n((?:"[^"]+": (?:major|minor|patch)\n)+)---\n\n\S/

describe("changesets", () => {
  const files = readdirSync(CHANGESETS).filter((file) => file.endsWith(".md") && file !== "README.md")

  it("were released into a changelog per public package, its newest heading the package's version", () => {
    for (const folder of ["packages", "adapters"])
      for (const name of readdirSync(join(ROOT, folder))) {
        const manifest = JSON.parse(readFileSync(join(ROOT, folder, name, "package.json"), "utf8")) as {
          name: string
          version: string
          private?: boolean
        }
        if (manifest.private === true) continue
        const changelog = readFileSync(join(ROOT, folder, name, "CHANGELOG.md"), "utf8")
        expect(changelog.startsWith(`# ${manifest.name}\n`), `${folder}/${name}/CHANGELOG.md`).toBe(true)
        expect(/^## (\S+)$/m.exec(changelog)?.[1], `${folder}/${name}/CHANGELOG.md`).toBe(manifest.version)
      }
  })

  it.each(files)("%s names workspace packages and their bump in its front matter", (file) => {
    const text = readFileSync(join(CHANGESETS, file), "utf8")
    const match = FRONT_MATTER.exec(text)
    expect(match, `${file} does not start with front matter like ---\\n"@kasko/core": minor\\n---`).not.toBeNull()
    const packages = match![1]!
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line.slice(0, line.lastIndexOf(":"))) as string)
    for (const name of packages) expect(workspacePackages, `${file} names ${name}`).toContain(name)
  })
})
