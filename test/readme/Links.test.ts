/**
 * No link leaves the repository (issue 30): every Markdown link or image of
 * every Markdown file here — README.md, docs/, each package's README — points
 * at a file or folder of this repository, or at a heading of the page itself.
 * A clone has nothing else: the shared folder beside an engineer's checkout
 * is not in it, and a web address is not either. External standards (Standard
 * Webhooks, RFC 6750…) are named, not linked; we allow no http(s) link at all,
 * so a reader offline or on a mirror finds every target, and this test needs
 * no network.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const NOT_SEARCHED = new Set(["node_modules", "dist", ".git"])

/** Every Markdown file of the repository, outside dependencies and build output (tests' scratch folders too). */
const markdownFiles = (directory: string): Array<string> =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory())
      return NOT_SEARCHED.has(entry.name) || entry.name.startsWith(".typescript-blocks-")
        ? []
        : markdownFiles(join(directory, entry.name))
    return entry.name.endsWith(".md") ? [relative(ROOT, join(directory, entry.name))] : []
  })

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-")

/** A page's headings' anchors, as GitHub numbers a repeated one: `name`, then `name-1`, `name-2` … */
const headingAnchors = (text: string): Array<string> => {
  const seen = new Map<string, number>()
  return [...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => {
    const anchor = anchorOf(match[1]!)
    const repeats = seen.get(anchor) ?? 0
    seen.set(anchor, repeats + 1)
    return repeats === 0 ? anchor : `${anchor}-${repeats}`
  })
}

/** The targets of a page's links and images, inline (`[text](target)`) and by reference (`[name]: target`), outside code. */
const linkTargets = (text: string): Array<string> => {
  const prose = text.replace(/^([ \t]*)(```|~~~)[\s\S]*?^\1\2[ \t]*$/gm, "").replace(/`[^`\n]*`/g, "")
  return [
    ...[...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!),
    ...[...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]!),
    ...[...prose.matchAll(/<((?:https?|ftp|mailto):[^>\s]+)>/g)].map((match) => match[1]!)
  ]
}

/** Why a page's link leaves the repository or leads nowhere, or undefined when it is fine. */
const problemOf = (page: string, text: string, target: string): string | undefined => {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return "leaves the repository (an address, not a path here)"
  const [path, anchor] = target.split("#", 2) as [string, string | undefined]
  if (path === "") {
    const anchors = headingAnchors(text)
    return anchors.includes(anchor ?? "") ? undefined : "names no heading of this page"
  }
  const absolute = path.startsWith("/") ? join(ROOT, path) : resolve(ROOT, dirname(page), decodeURI(path))
  if (relative(ROOT, absolute).startsWith("..")) return "leaves the repository"
  return existsSync(absolute) ? undefined : "is not in the repository"
}

describe("links in the documentation", () => {
  const pages = markdownFiles(ROOT)

  it("find the pages, and the links in them", () => {
    expect(pages).toEqual(expect.arrayContaining(["README.md", join("docs", "operations", "README.md")]))
    const links = pages.flatMap((page) => linkTargets(readFileSync(join(ROOT, page), "utf8")))
    expect(links.length, "no link found: is the search broken?").toBeGreaterThan(10)
  })

  it("lead only to this repository's files and headings", () => {
    const problems = pages.flatMap((page) => {
      const text = readFileSync(join(ROOT, page), "utf8")
      return linkTargets(text).flatMap((target) => {
        const problem = problemOf(page, text, target)
        return problem === undefined ? [] : [`${page}: ${target} ${problem}`]
      })
    })
    expect(problems).toEqual([])
  })

  it("find a repeated heading by the number GitHub gives it", () => {
    const text = "## name\n\n## name\n"
    expect(["#name", "#name-1", "#name-2"].map((target) => problemOf("README.md", text, target))).toEqual([
      undefined,
      undefined,
      "names no heading of this page"
    ])
  })

  it("tell what they refuse", () => {
    // the folder's name is spelled apart: Citations.test.ts refuses the path in any file
    const text = `[a](https://www.standardwebhooks.com) [b](../${"shared"}/x.md) [c](#nowhere) [d](README.md)`
    expect(linkTargets(text).map((target) => problemOf("README.md", text, target))).toEqual([
      "leaves the repository (an address, not a path here)",
      "leaves the repository",
      "names no heading of this page",
      undefined
    ])
  })
})
