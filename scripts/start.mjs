// `pnpm start`: builds only when a source changed since the last build this script made, then runs
// `kasko serve` in this process. The root's build is incremental, but starting pnpm again to run it
// cost about a second on every start, before kasko's own; a checkout that is built starts at once.
//
// Fresh means: every output `kasko serve` runs exists, and no source the build reads (the workspace's
// TypeScript, JavaScript, JSON, CSS and HTML, and the root's package.json and tsconfig files) is newer than
// the stamp written when this script's last build began. Anything else — a fresh clone, an edit, a
// removed dist/ — runs the root's `build` script first, as `pnpm run build` would.
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { delimiter, dirname, extname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..")
const STAMP = join(ROOT, "node_modules", ".cache", "kasko", "built")
const SOURCE_FOLDERS = ["packages", "adapters", "examples", "test"]
const ROOT_SOURCES = ["package.json", "tsconfig.json", "tsconfig.base.json"]
const SOURCE_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json", ".css", ".html"])
// build outputs and tests' scratch directories (dot-named), not sources
const NOT_SOURCES = new Set(["node_modules", "dist"])
const OUTPUTS = [
  "packages/server/dist/cli/kasko.mjs",
  "packages/server/dist/src/main.js",
  "packages/workbench-web/dist/browser/app.js"
]

/** The source files under a directory. */
const sourcesIn = (directory) =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".") || NOT_SOURCES.has(entry.name)) return []
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourcesIn(path)
    return SOURCE_EXTENSIONS.has(extname(entry.name)) ? [path] : []
  })

/** Why the build must run, or undefined when what it made is current. */
const staleness = () => {
  if (!existsSync(STAMP)) return "no build by `pnpm start` yet"
  const missing = OUTPUTS.find((output) => !existsSync(join(ROOT, output)))
  if (missing !== undefined) return `${missing} is missing`
  const builtAt = statSync(STAMP).mtimeMs
  const sources = [
    ...ROOT_SOURCES.map((file) => join(ROOT, file)),
    ...SOURCE_FOLDERS.filter((folder) => existsSync(join(ROOT, folder))).flatMap((folder) =>
      sourcesIn(join(ROOT, folder))
    )
  ]
  const newer = sources.find((source) => existsSync(source) && statSync(source).mtimeMs > builtAt)
  return newer === undefined ? undefined : `${newer.slice(ROOT.length + 1)} changed`
}

const reason = staleness()
if (reason !== undefined) {
  process.stderr.write(`building (${reason})\n`)
  // the stamp takes the time the build began: a file saved while it runs is seen as changed next time
  const began = new Date()
  const { build } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts
  const built = spawnSync(build, {
    cwd: ROOT,
    shell: true,
    stdio: "inherit",
    env: { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}${delimiter}${process.env["PATH"] ?? ""}` }
  })
  if (built.status !== 0) process.exit(built.status ?? 1)
  mkdirSync(dirname(STAMP), { recursive: true })
  writeFileSync(STAMP, "")
  utimesSync(STAMP, began, began)
}

// `kasko serve` with this command's arguments, in this process: signals reach the service itself
const kasko = join(ROOT, "packages", "server", "bin", "kasko.mjs")
process.argv = [process.argv[0], kasko, "serve", ...process.argv.slice(2)]
await import(pathToFileURL(kasko).href)
