/**
 * Every TypeScript block of every README compiles against the packages as
 * they are: each ```ts or ```typescript block is written as a module of its
 * own into a directory inside the repository (so `@kasko/*` resolves through
 * the workspace, as it does for the examples), and one `tsc --noEmit` run
 * type-checks them all with the repository's compiler settings.
 *
 * A block that is deliberately a fragment says so on its fence
 * (```ts no-check); the test counts and names those.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const TSC = join(ROOT, "node_modules", "@typescript", "native", "bin", "tsc")
// a dot directory: `tsc -b` of the test project (include **/*.ts) does not see it while it exists
const BLOCKS_PREFIX = ".typescript-blocks-"
const NOT_SEARCHED = new Set(["node_modules", "dist", ".git"])
const OPT_OUT = "no-check"

interface Block {
  /** The README, relative to the repository root. */
  readonly readme: string
  /** The line of the opening fence in the README (1-based). */
  readonly line: number
  readonly code: string
  readonly optedOut: boolean
}

/** Every README.md of the repository, outside dependencies and build output. */
const readmes = (directory: string): Array<string> =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      return NOT_SEARCHED.has(entry.name) || entry.name.startsWith(BLOCKS_PREFIX)
        ? []
        : readmes(join(directory, entry.name))
    }
    return entry.name === "README.md" ? [relative(ROOT, join(directory, entry.name))] : []
  })

/** The ```ts and ```typescript blocks of a README, indented ones (in a list) included. */
const typeScriptBlocks = (readme: string): Array<Block> => {
  const text = readFileSync(join(ROOT, readme), "utf8")
  return [...text.matchAll(/^([ \t]*)```(?:ts|typescript)(?=[ \t]|$)([^\n]*)\n([\s\S]*?)^\1```[ \t]*$/gm)].map(
    (match) => ({
      readme,
      line: text.slice(0, match.index).split("\n").length,
      code: match[3]!.replace(new RegExp(`^${match[1]!}`, "gm"), ""),
      optedOut: match[2]!.trim().split(/\s+/).includes(OPT_OUT)
    })
  )
}

/** The name of a block's module: the README's path and the fence's line, readable in tsc's output. */
const moduleName = (block: Block) => `${block.readme.replaceAll("/", "__").replace(/\.md$/, "")}__L${block.line}.ts`

describe("the READMEs' TypeScript blocks", () => {
  const blocks = readmes(ROOT).sort().flatMap(typeScriptBlocks)
  const checked = blocks.filter((block) => !block.optedOut)
  const directory = mkdtempSync(join(import.meta.dirname, BLOCKS_PREFIX))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it("type-check as written, every block a module of its own, in one tsc run", () => {
    const optedOut = blocks.filter((block) => block.optedOut)
    console.info(
      `${checked.length} TypeScript blocks in ${new Set(checked.map((block) => block.readme)).size} READMEs type-checked; ` +
        `${optedOut.length} opted out with "${OPT_OUT}"${optedOut.map((block) => `\n  ${block.readme}:${block.line}`).join("")}`
    )
    expect(checked.length, "no TypeScript block found: is the search broken?").toBeGreaterThan(0)

    const byModule = new Map(checked.map((block) => [moduleName(block), block]))
    for (const [name, block] of byModule) writeFileSync(join(directory, name), block.code)
    writeFileSync(
      join(directory, "tsconfig.json"),
      JSON.stringify({
        // the repository's settings: strict, NodeNext, the "source" condition the examples resolve @kasko/* with,
        // and skipLibCheck (vega's declarations need the DOM library and fail exactOptionalPropertyTypes) …
        extends: relative(directory, join(ROOT, "tsconfig.base.json")),
        // … but a README's block is not a project of its own, and it may name a value only to show it
        compilerOptions: {
          noEmit: true,
          composite: false,
          incremental: false,
          declaration: false,
          declarationMap: false,
          sourceMap: false,
          noUnusedLocals: false,
          noUnusedParameters: false,
          moduleDetection: "force"
        },
        include: ["*.ts"]
      })
    )

    const tsc = spawnSync(process.execPath, [TSC, "-p", directory, "--pretty", "false"], {
      cwd: directory,
      encoding: "utf8"
    })
    // "<module>(line,column): error TS…" becomes "<README>:<line>:<column> (block at line <fence>): error TS…";
    // any other file is named from the repository root
    const diagnostics = `${tsc.stdout}${tsc.stderr}`.replace(
      /^(\S+?\.ts)\((\d+),(\d+)\)/gm,
      (_, file: string, line: string, column: string) => {
        const path = resolve(directory, file)
        const block = byModule.get(relative(directory, path))
        return block === undefined
          ? `${relative(ROOT, path)}:${line}:${column}`
          : `${block.readme}:${block.line + Number(line)}:${column} (block at line ${block.line})`
      }
    )
    expect(tsc.status, `the READMEs' TypeScript blocks do not compile:\n${diagnostics}`).toBe(0)
  }, 180_000)
})
