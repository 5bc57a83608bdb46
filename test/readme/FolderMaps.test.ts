/**
 * Each package's README opens with a map of its folders: a ```text block of
 * three lines straight after the title, naming every folder of the package
 * (and every folder of its src/) as `folder/`, and no folder that is gone.
 * A folder added, moved or removed without its map fails here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const PACKAGES = ["packages", "adapters"].flatMap((group) =>
  readdirSync(join(ROOT, group)).map((name) => `${group}/${name}`)
)
const NOT_MAPPED = new Set(["node_modules", "dist"])

const foldersIn = (directory: string): Array<string> =>
  existsSync(directory)
    ? readdirSync(directory, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && !NOT_MAPPED.has(entry.name))
        .map((entry) => entry.name)
    : []

/** The folders a map must name: the package's own, and src/'s as `src/<name>/`. */
const foldersOf = (packageFolder: string): Array<string> => [
  ...foldersIn(join(ROOT, packageFolder)).map((name) => `${name}/`),
  ...foldersIn(join(ROOT, packageFolder, "src")).map((name) => `src/${name}/`)
]

/** The ```text block that follows the README's title, or undefined when something else comes first. */
const openingMap = (readme: string): Array<string> | undefined => {
  const match = /^# [^\n]+\n\n```text\n([\s\S]*?)\n```\n/.exec(readme)
  return match?.[1]?.split("\n")
}

describe("each package's README opens with a map of its folders", () => {
  it("finds the packages", () => {
    expect(PACKAGES).toEqual(expect.arrayContaining(["packages/core", "adapters/express"]))
  })

  for (const packageFolder of PACKAGES) {
    it(`${packageFolder}`, () => {
      const map = openingMap(readFileSync(join(ROOT, packageFolder, "README.md"), "utf8"))
      expect(map, "a ```text block straight after the title").toBeDefined()
      expect(map).toHaveLength(3)
      const text = map!.join("\n")
      // a folder is named by itself, `test/` or `src/server/` (which names src/ too): the test/sqlite of a
      // sentence about another package's folder does not name test/
      const named = new Set(
        (text.match(/(?<![\w./-])(?:[a-z][a-z-]*\/)+(?![\w.-])/g) ?? []).flatMap((path) => [
          path,
          path.slice(0, path.indexOf("/") + 1)
        ])
      )
      for (const folder of foldersOf(packageFolder)) expect([...named], `names ${folder}`).toContain(folder)
      for (const named of text.matchAll(/\bsrc\/([a-z-]+)\//g)) {
        expect(existsSync(join(ROOT, packageFolder, "src", named[1]!)), `src/${named[1]}/ exists`).toBe(true)
      }
    })
  }
})
