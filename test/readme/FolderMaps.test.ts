/**
 * Each package's README opens with a map of its folders and files: a ```text
 * block straight after the title, naming every folder of the package (and
 * every folder of its src/) as `folder/`, and no folder that is gone; every
 * file directly in src/ by its name (or a pattern such as `*Commands.ts`, or
 * its module's name), and no file that is gone. A folder or file added, moved
 * or removed without its map fails here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
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

const FILE = /\.(ts|mjs|js|json|html|css)$/

/** The file names and patterns a map gives: `Name.ts`, `src/index.ts`, `*Commands.ts`, `Impact*`, `Problem*.ts`. */
const fileNamesOf = (map: string): Array<string> =>
  [...map.matchAll(/(?<![\w.*-])(?:[\w-]+\/)*(\*?[A-Za-z][\w-]*\*?(?:\.[a-z]+)*)(?![\w*])/g)]
    .map((match) => match[1]!)
    .filter((name) => FILE.test(name) || name.includes("*"))

/** A name or pattern as a test of a file's name; a pattern without an extension (`Impact*`) takes any. */
const matcherOf = (name: string): RegExp => {
  const body = name.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[\\w.-]*")
  return new RegExp(`^${body}${name.includes(".") ? "" : "(\\.[\\w.]+)?"}$`)
}

/** Every file of a folder and its subfolders but the made ones (dist/, node_modules/), by name. */
const fileNamesUnder = (directory: string): Array<string> =>
  existsSync(directory)
    ? readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
        NOT_MAPPED.has(entry.name)
          ? []
          : entry.isDirectory()
            ? fileNamesUnder(join(directory, entry.name))
            : [entry.name]
      )
    : []

describe("each package's README opens with a map of its folders and files", () => {
  it("finds the packages", () => {
    expect(PACKAGES).toEqual(expect.arrayContaining(["packages/core", "adapters/express"]))
  })

  for (const packageFolder of PACKAGES) {
    it(`${packageFolder}`, () => {
      const map = openingMap(readFileSync(join(ROOT, packageFolder, "README.md"), "utf8"))
      expect(map, "a ```text block straight after the title").toBeDefined()
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

    it(`${packageFolder}: names every file of src/, and only files that exist`, () => {
      const text = openingMap(readFileSync(join(ROOT, packageFolder, "README.md"), "utf8"))?.join("\n") ?? ""
      const names = fileNamesOf(text)
      const files = fileNamesUnder(join(ROOT, packageFolder))
      expect(names.filter((name) => !files.some((file) => matcherOf(name).test(file)))).toEqual([])
      const source = join(ROOT, packageFolder, "src")
      if (!existsSync(source)) return
      // a module named bare (`GoldenTable`) names its file too
      const stems = new Set([...text.matchAll(/\b[A-Z][A-Za-z]+\b/g)].map((match) => match[0]))
      const unnamed = readdirSync(source)
        .filter((entry) => statSync(join(source, entry)).isFile())
        .filter((file) => !names.some((name) => matcherOf(name).test(file)) && !stems.has(file.replace(FILE, "")))
      expect(unnamed).toEqual([])
    })
  }
})
