/**
 * Every name a released package exports (the names test/api/exports lists) has a doc comment that says what it is
 * and when to use it (STYLE §10), read from the built declarations as an embedder's editor and the API reference
 * (`pnpm docs:api`) read it. A comment counts when it says something besides the name. A namespace
 * (`export * as Quote from "./Quote.js"`) counts when its module's header comment (in its source) carries `@module`,
 * or when the `export * as` line has a doc comment of its own: where the API reference takes a namespace's
 * description from.
 * The figures per package, and the names still without a comment, are committed in test/api/doc-comments.txt.
 */
import { existsSync, readFileSync } from "node:fs"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { checker, type ExportedName, exportedNames, PUBLIC_PACKAGES } from "./PublicApi.js"

/** The packages whose names may still lack a comment, each with the reason; every other package has them all. */
const NOT_YET_DOCUMENTED = new Map<string, string>([])

/** Words that say nothing on their own: a comment of these and the name's own words only repeats the name. */
const FILLER = new Set(["a", "an", "the", "of", "for", "to", "and", "or", "is", "in", "on"])

/** Whether a comment says something besides the name it stands on: two words or more that are not the name's. */
const saysSomething = (text: string, name: string): boolean => {
  const nameWords = new Set(
    (name.split(".").at(-1) ?? name)
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .split(/[^A-Za-z0-9]+/)
      .map((word) => word.toLowerCase())
  )
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "" && !nameWords.has(word) && !FILLER.has(word))
  return words.length >= 2
}

/** The description of a JSDoc comment's text (`/** … *\/`): its lines before the first tag, without the stars. */
const descriptionOf = (comment: string): string =>
  comment
    .replace(/^\/\*\*|\*\/$/g, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\*\s?/, ""))
    .join("\n")
    .split(/^\s*@/m)[0]!
    .trim()

/**
 * The module header a namespace's description comes from: the first doc comment of its source file, when it carries
 * `@module`. Read from the source, where the API reference reads it: a declaration file drops the header with the
 * imports it stands on when none of them is needed for the types.
 */
const moduleComment = (module: ts.Symbol): string => {
  const declarations = module.declarations?.find(ts.isSourceFile)?.fileName
  if (declarations === undefined) return ""
  const source = declarations.replace(/[/\\]dist[/\\]src[/\\]/, "/src/").replace(/\.d\.ts$/, ".ts")
  const text = readFileSync(existsSync(source) ? source : declarations, "utf8")
  const first = ts.getLeadingCommentRanges(text, 0)?.find((range) => text.startsWith("/**", range.pos))
  if (first === undefined) return ""
  const comment = text.slice(first.pos, first.end)
  return /^\s*\*\s*@module\b/m.test(comment) ? descriptionOf(comment) : ""
}

/** Whether a doc comment describes the file it opens (`@module`), not the declaration that follows it. */
const isModuleComment = (doc: ts.JSDoc): boolean =>
  (doc.tags ?? []).some(({ tagName }) => tagName.text === "module" || tagName.text === "packageDocumentation")

/** The doc comment on an `export * as Name from …` line, if the name is exported so. */
const exportLineComment = (exported: ts.Symbol): string =>
  (exported.declarations ?? [])
    .filter(ts.isNamespaceExport)
    .flatMap((declaration) => ts.getJSDocCommentsAndTags(declaration.parent))
    .filter((doc) => ts.isJSDoc(doc) && !isModuleComment(doc))
    .map((doc) => ts.getTextOfJSDocComment((doc as ts.JSDoc).comment) ?? "")
    .join("\n")

/** What a name's doc comment says, as an embedder's editor shows it on hover. */
const commentOf = ({ kind, exported, symbol }: ExportedName): string =>
  kind === "namespace"
    ? `${exportLineComment(exported)}\n${moduleComment(symbol)}`.trim()
    : ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim()

const percent = (part: number, whole: number): string => `${whole === 0 ? 100 : Math.floor((100 * part) / whole)} %`

const figures = [...PUBLIC_PACKAGES]
  .sort((a, b) => (a.name < b.name ? -1 : 1))
  .map(({ name, entries }) => {
    const names = exportedNames(entries)
    const undocumented = names
      .filter((exported) => !saysSomething(commentOf(exported), exported.name))
      .map((exported) => `${exported.specifier}  ${exported.name}`)
    return { name, names: names.length, documented: names.length - undocumented.length, undocumented }
  })

describe("doc comments on the public API", () => {
  it("are counted per package in test/api/doc-comments.txt", async () => {
    const width = Math.max(...figures.map(({ name }) => name.length))
    const row = (name: string, names: number, documented: number) =>
      `${name.padEnd(width)}  ${String(names).padStart(5)}  ${String(documented).padStart(10)}  ${percent(documented, names).padStart(8)}`
    const table = [
      `${"package".padEnd(width)}  names  documented  per cent`,
      ...figures.map((figure) => row(figure.name, figure.names, figure.documented)),
      row(
        "all",
        figures.reduce((sum, { names }) => sum + names, 0),
        figures.reduce((sum, { documented }) => sum + documented, 0)
      )
    ]
    const missing = figures.flatMap(({ undocumented }) => undocumented)
    const text = [
      "# Generated by test/api/DocComments.test.ts (update: npx vitest run test/api -u): the names each package exports",
      "# (test/api/exports) and how many have a doc comment that says something.",
      "",
      ...table,
      ...(missing.length === 0 ? [] : ["", "# without a doc comment", ...missing]),
      ""
    ].join("\n")
    await expect(text).toMatchFileSnapshot("doc-comments.txt")
  })

  for (const { name, undocumented } of figures.filter(({ name }) => !NOT_YET_DOCUMENTED.has(name))) {
    it(`${name}: every exported name has one`, () => {
      expect(undocumented).toEqual([])
    })
  }

  it("a comment that only repeats the name does not count", () => {
    expect(saysSomething("The quote store.", "QuoteStore.QuoteStore")).toBe(false)
    expect(saysSomething("", "layer")).toBe(false)
    expect(saysSomething("Stores quotes in SQLite: the embedded default.", "layer")).toBe(true)
  })

  it("the exempt packages exist", () => {
    const names = new Set(PUBLIC_PACKAGES.map(({ name }) => name))
    expect([...NOT_YET_DOCUMENTED.keys()].filter((name) => !names.has(name))).toEqual([])
  })
})
