/**
 * Every document a comment or README cites is in the repository: `spec §2.9`,
 * `DESIGN §2`, `STYLE §3` name a section of `docs/spec/partner-car-insurance-api.md`,
 * `docs/DESIGN.md` or `docs/STYLE.md` that exists, and no file points outside the
 * clone (the `shared` folder beside an engineer's checkout), where a reader of the
 * repository finds nothing.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const DOCUMENTS = {
  spec: "docs/spec/partner-car-insurance-api.md",
  DESIGN: "docs/DESIGN.md",
  STYLE: "docs/STYLE.md"
} as const
const SKIPPED = new Set(["node_modules", "dist", ".git", "results", "coverage"])
const READ = /\.(ts|tsx|mjs|js|md|json|html|css)$/

/** Every text file of the repository's own, by path from the root. */
const repositoryFiles = (directory = ROOT): Array<string> =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return []
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return repositoryFiles(path)
    return READ.test(entry.name) && !entry.name.endsWith("-lock.yaml") ? [relative(ROOT, path)] : []
  })

/** The numbered sections of a document: "2" for `## 2. …`, "2.9" for `### 2.9 …`. */
const sectionsOf = (document: string): Set<string> =>
  new Set(
    [...readFileSync(join(ROOT, document), "utf8").matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.?\s/gm)].map((match) => match[1]!)
  )

const OUTSIDE = new RegExp(String.raw`\.\./${"shared"}/`)
const CITATION = /\b(spec|DESIGN|STYLE) §(\d+(?:\.\d+)*)(?:[–-](\d+(?:\.\d+)*))?/g

describe("citations", () => {
  const files = repositoryFiles().filter((file) => !Object.values(DOCUMENTS).includes(file as never))
  const sections = Object.fromEntries(
    Object.entries(DOCUMENTS).map(([name, document]) => [name, sectionsOf(document)])
  ) as Record<keyof typeof DOCUMENTS, Set<string>>

  it("reads the repository's files and the documents' sections", () => {
    expect(files.length).toBeGreaterThan(300)
    expect(sections.spec).toContain("2.9")
    expect(sections.DESIGN).toContain("2")
    expect(sections.STYLE).toContain("3")
  })

  it("names only sections the cited document has", () => {
    const broken = files.flatMap((file) =>
      [...readFileSync(join(ROOT, file), "utf8").matchAll(CITATION)].flatMap((match) => {
        const known = sections[match[1] as keyof typeof DOCUMENTS]
        const cited = [match[2]!, ...(match[3] === undefined ? [] : [match[3]])]
        return cited.filter((section) => !known.has(section)).map((section) => `${file}: ${match[1]} §${section}`)
      })
    )
    expect(broken).toEqual([])
  })

  it("points at no file outside the repository", () => {
    const outside = files.filter((file) => OUTSIDE.test(readFileSync(join(ROOT, file), "utf8")))
    expect(outside).toEqual([])
  })
})
