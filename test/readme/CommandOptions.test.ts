/**
 * Every `kasko …` command line the documentation writes — in a shell block, a
 * text block or inline — names a command the `kasko` command has, and only
 * options that command accepts: a reader copying `kasko keys revoke --prefix`
 * (the option is `--key-prefix`) met an error the documents never showed.
 */
import { runCli } from "@kasko/server"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")

const DOCUMENTS = [
  "README.md",
  "SECURITY.md",
  "ARCHITECTURE.md",
  join("examples", "README.md"),
  join("bench", "README.md"),
  join("docs", "development.md"),
  join("docs", "operations", "README.md"),
  ...["packages", "adapters", "examples"].flatMap((folder) =>
    readdirSync(join(ROOT, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(folder, entry.name, "README.md"))
  )
].filter((file) => {
  try {
    readFileSync(join(ROOT, file))
    return true
  } catch {
    return false
  }
})

/** The subcommands `kasko <path> --help` lists, each as its words after `kasko`. */
const subcommandsOf = async (path: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
  const help = (await runCli([...path, "--help"])).stdout
  const prefix = ["kasko", ...path].join(" ")
  return [...help.matchAll(/^ {2}(kasko [a-z][a-z-]*(?: [a-z][a-z-]*)*)\s/gm)]
    .map((match) => match[1]!)
    .filter((command) => command.startsWith(`${prefix} `))
    .map((command) => command.slice(prefix.length + 1))
}

/** The options `kasko <path> --help` lists. */
const optionsOf = async (path: ReadonlyArray<string>): Promise<ReadonlySet<string>> => {
  const help = (await runCli([...path, "--help"])).stdout
  return new Set([...help.matchAll(/(?:^|\s|,)(--[a-z][a-z0-9-]*)/gm)].map((match) => match[1]!))
}

interface Mention {
  readonly file: string
  readonly line: number
  readonly words: ReadonlyArray<string>
}

/** Each `kasko` command line of a document: the words after `kasko` up to the end of the code span or line. */
const mentionsOf = (file: string): ReadonlyArray<Mention> =>
  readFileSync(join(ROOT, file), "utf8")
    .split("\n")
    .flatMap((text, index) =>
      [
        ...text.matchAll(
          /(?:^|[\s`(])(?:npx |pnpm@10 exec )?kasko ((?:[a-z][a-z-]*|--?[a-z][^\s`|]*|[^\s`|]+)(?: [^`|#\n]*)?)/g
        )
      ]
        // prose mentions ("kasko is", "kasko's") are not commands; a command line starts with a command word
        .map((match) => ({ file, line: index + 1, words: match[1]!.trim().split(/\s+/) }))
    )

describe("the kasko command lines in the documentation", () => {
  it("name commands that exist, with options those commands accept", async () => {
    const topLevel = new Set(await subcommandsOf([]))
    const problems: Array<string> = []
    let checked = 0
    for (const file of DOCUMENTS) {
      for (const mention of mentionsOf(file)) {
        const [first] = mention.words
        if (first === undefined || !topLevel.has(first)) continue
        // the longest command path the words start with: `keys revoke`, `webhooks deliveries`, `serve`
        const path = [first]
        for (;;) {
          const next = mention.words[path.length]
          if (next === undefined || !(await subcommandsOf(path)).includes(next)) break
          path.push(next)
        }
        const accepted = await optionsOf(path)
        for (const word of mention.words.slice(path.length)) {
          const option = /^(--[a-z][a-z0-9-]*)/.exec(word)?.[1]
          if (option !== undefined && !accepted.has(option))
            problems.push(`${mention.file}:${mention.line}: kasko ${path.join(" ")} has no ${option}`)
        }
        checked++
      }
    }
    expect(problems).toEqual([])
    // the documents do name commands: a pattern that finds none would check nothing
    expect(checked).toBeGreaterThan(30)
  })
})
