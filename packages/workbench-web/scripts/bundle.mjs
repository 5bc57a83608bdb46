// Builds the workbench page ahead of time into dist/browser: the TypeScript
// of src/browser bundled by esbuild with the core and the workbench from
// their sources (the "source" export condition), split so that each editor
// loads only with its view (the tariff's, the product's); the impact view's web workers' script
// (impact-worker.js) shares the engine's chunks with the page; then the static
// files beside it.
// Run by the root's build (so by install, test and start): when nothing the
// last build read has changed since, it does nothing (and prints nothing,
// so output captured from a script stays its own).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), "..")
const outdir = join(packageDirectory, "dist", "browser")
const metafilePath = join(packageDirectory, "dist", "browser-bundle.json")
const staticDirectory = join(packageDirectory, "static")

/** Whether the last build is newer than everything it read (sources, packages, static files, this script). */
const upToDate = () => {
  if (!existsSync(metafilePath) || !existsSync(join(outdir, "app.js")) || !existsSync(join(outdir, "impact-worker.js")))
    return false
  const builtAt = statSync(metafilePath).mtimeMs
  const inputs = [
    ...Object.keys(JSON.parse(readFileSync(metafilePath, "utf8")).inputs).map((input) => join(packageDirectory, input)),
    ...readdirSync(staticDirectory).map((name) => join(staticDirectory, name)),
    fileURLToPath(import.meta.url)
  ]
  return inputs.every((input) => existsSync(input) && statSync(input).mtimeMs < builtAt)
}

/**
 * The workspace's own sources (core, workbench) run nothing when imported
 * (STYLE §2), but their packages do not say so (`sideEffects: false`), so a
 * bundler would keep every module behind the core's main entry — quotes,
 * partners, stores — and run it on load. Saying it here lets esbuild leave
 * out what the page never uses.
 */
const WORKSPACE_SOURCES = [
  join(packageDirectory, "..", "core", "src"),
  join(packageDirectory, "..", "workbench", "src")
]
const pureWorkspaceSources = {
  name: "pure-workspace-sources",
  setup(builder) {
    builder.onResolve({ filter: /^(@kasko\/|\.\.?\/)/ }, async (args) => {
      if (args.pluginData?.resolving) return undefined
      const result = await builder.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { resolving: true }
      })
      if (result.errors.length > 0) return result
      return WORKSPACE_SOURCES.some((directory) => result.path.startsWith(directory))
        ? { ...result, sideEffects: false }
        : result
    })
  }
}

if (!upToDate()) {
  rmSync(outdir, { recursive: true, force: true })
  mkdirSync(outdir, { recursive: true })
  const { build } = await import("esbuild")
  const result = await build({
    absWorkingDir: packageDirectory,
    entryPoints: { app: "src/browser/main.ts", "impact-worker": "src/browser/impact/ImpactWebWorker.ts" },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["chrome120", "firefox120", "safari17"],
    conditions: ["source"],
    // csv-stringify's default build uses Node's Buffer; its browser build brings its own
    alias: {
      "csv-stringify/sync": "csv-stringify/browser/esm/sync"
    },
    chunkNames: "chunks/[name]-[hash]",
    plugins: [pureWorkspaceSources],
    minify: true,
    sourcemap: "linked",
    metafile: true,
    legalComments: "linked",
    logLevel: "warning"
  })
  cpSync(staticDirectory, outdir, { recursive: true })
  // the chunks app.js imports, fetched at once rather than after app.js has been read
  const preloads = result.metafile.outputs["dist/browser/app.js"].imports
    .filter((imported) => imported.kind === "import-statement")
    .map((imported) => `<link rel="modulepreload" href="/${imported.path.replace(/^dist\/browser\//, "")}" />`)
  const indexPath = join(outdir, "index.html")
  writeFileSync(indexPath, readFileSync(indexPath, "utf8").replace("<!--MODULE-PRELOADS-->", preloads.join("\n    ")))
  writeFileSync(metafilePath, JSON.stringify(result.metafile))
  const sizes = Object.entries(result.metafile.outputs)
    .filter(([file]) => file.endsWith(".js"))
    .map(([file, output]) => `${file.replace(/^dist\/browser\//, "")} ${(output.bytes / 1024).toFixed(0)} KiB`)
  process.stderr.write(`workbench page built into dist/browser: ${sizes.join(", ")}\n`)
}
