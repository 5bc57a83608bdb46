/**
 * `pnpm start` (scripts/start.mjs) builds only when the build is stale, then
 * serves: a fresh clone, an edited source or a removed output builds first; a
 * checkout built since its last edit starts `kasko serve` at once (the figure
 * is bench section 5's, not a test's). The script runs here as written, copied
 * into a checkout of stand-ins — a build that logs each run and a `kasko` that
 * prints its arguments — so that what it decides can be watched.
 *
 * Also: the CLI bundle's own up-to-date check holds when the root's build runs
 * it from the root (its metafile once named inputs relative to the root, which
 * the check read from the package: every build bundled again, 5 s each start).
 */
import { spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"

const ROOT = join(import.meta.dirname, "..", "..")
const OUTPUTS = [
  "packages/server/dist/cli/kasko.mjs",
  "packages/server/dist/src/main.js",
  "packages/workbench-web/dist/browser/app.js"
]
const SOURCE = "packages/core/src/index.ts"
// where scripts/start.mjs keeps the time its last build began
const STAMP = "node_modules/.cache/kasko/built"

/** Sets a file's modification time, in seconds from now. */
const setTime = (file: string, seconds: number) => {
  const time = new Date(Date.now() + seconds * 1000)
  utimesSync(file, time, time)
}

/** Writes a file dated five minutes ago, before any build of the test. */
const write = (root: string, file: string, text: string) => {
  mkdirSync(dirname(join(root, file)), { recursive: true })
  writeFileSync(join(root, file), text)
  setTime(join(root, file), -300)
}

/** A checkout of stand-ins: sources, a build that makes the outputs and logs itself, a `kasko` that echoes. */
const standInCheckout = (root: string, build = "node build.mjs") => {
  mkdirSync(join(root, "scripts"), { recursive: true })
  copyFileSync(join(ROOT, "scripts", "start.mjs"), join(root, "scripts", "start.mjs"))
  write(root, "package.json", JSON.stringify({ type: "module", scripts: { build } }))
  write(root, SOURCE, "export {}\n")
  write(
    root,
    "build.mjs",
    `import { appendFileSync, mkdirSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
for (const output of ${JSON.stringify(OUTPUTS)}) {
  mkdirSync(dirname(output), { recursive: true })
  writeFileSync(output, "")
}
appendFileSync("builds.log", "built\\n")
`
  )
  write(
    root,
    "packages/server/bin/kasko.mjs",
    'process.stdout.write(["kasko", ...process.argv.slice(2)].join(" ") + "\\n")\n'
  )
}

const start = (root: string) => {
  const ran = spawnSync(process.execPath, [join(root, "scripts", "start.mjs"), "--port", "0"], {
    cwd: root,
    encoding: "utf8"
  })
  let builds = 0
  try {
    builds = readFileSync(join(root, "builds.log"), "utf8").split("\n").filter(Boolean).length
  } catch {
    // no build yet
  }
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr, builds }
}

describe("pnpm start", () => {
  const directory = temporaryDirectory("kasko-start-")
  afterAll(() => directory.remove())

  it("builds a fresh clone, then serves with the arguments given", () => {
    const root = directory.newFile("fresh")
    standInCheckout(root)
    const first = start(root)
    expect(first.stderr).toContain("building (no build by `pnpm start` yet)")
    expect(first).toMatchObject({ status: 0, builds: 1, stdout: "kasko serve --port 0\n" })
  })

  it("does not build a checkout built since its last edit", () => {
    const root = directory.newFile("fresh-again")
    standInCheckout(root)
    start(root)
    const again = start(root)
    expect(again).toMatchObject({ status: 0, builds: 1, stdout: "kasko serve --port 0\n", stderr: "" })
  })

  it("builds again when a source is newer than the last build, and only once", () => {
    const root = directory.newFile("edited")
    standInCheckout(root)
    start(root)
    // the last build a minute ago, the edit half a minute ago
    setTime(join(root, STAMP), -60)
    setTime(join(root, SOURCE), -30)
    const edited = start(root)
    expect(edited.stderr).toContain(`building (${SOURCE} changed)`)
    expect(edited).toMatchObject({ status: 0, builds: 2, stdout: "kasko serve --port 0\n" })
    expect(start(root).builds).toBe(2)
  })

  it("builds when an output it serves from is gone", () => {
    const root = directory.newFile("removed")
    standInCheckout(root)
    start(root)
    rmSync(join(root, OUTPUTS[0]!))
    const removed = start(root)
    expect(removed.stderr).toContain(`building (${OUTPUTS[0]} is missing)`)
    expect(removed.builds).toBe(2)
  })

  it("does not serve when the build fails, and builds again next time", () => {
    const root = directory.newFile("failing")
    standInCheckout(root, "node build.mjs && exit 3")
    const failed = start(root)
    expect(failed).toMatchObject({ status: 3, stdout: "", builds: 1 })
    expect(start(root).builds).toBe(2)
  })
})

describe("the CLI bundle (packages/server/scripts/bundle-cli.mjs)", () => {
  it("does nothing when run again from the root, as the root's build runs it", () => {
    const metafile = join(ROOT, "packages", "server", "dist", "cli-bundle.json")
    const bundle = () =>
      spawnSync(process.execPath, [join(ROOT, "packages", "server", "scripts", "bundle-cli.mjs")], {
        cwd: ROOT,
        encoding: "utf8"
      })
    // the first run bundles only if a build since the last bundle left it stale
    expect(bundle().status).toBe(0)
    const bundledAt = statSync(metafile).mtimeMs
    expect(bundle().status).toBe(0)
    expect(statSync(metafile).mtimeMs).toBe(bundledAt)
  }, 60_000)
})
