// Bundles the impact's worker thread (dist/src/ImpactWorker.js, what tsc compiled)
// into dist/worker/ImpactWorker.mjs with the core and Effect tree-shaken into it:
// a thread then starts in a few tens of milliseconds instead of the ~0.3 s Node
// takes to read Effect's ~700 modules one by one — time every impact test pays
// before its first case, on one worker as on two. Run by the root's build after
// tsc; `portfolioImpact` takes the bundle only when it is newer than the compiled
// worker, so a `tsc -b` alone never leaves threads on stale code. When nothing
// the last build read has changed since, it does nothing.
import { build } from "esbuild"
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), "..")
const entry = join(packageDirectory, "dist", "src", "ImpactWorker.js")
const outfile = join(packageDirectory, "dist", "worker", "ImpactWorker.mjs")
const metafilePath = join(packageDirectory, "dist", "worker-bundle.json")
const WORKSPACE = join(packageDirectory, "..")

/** Whether the last bundle is newer than everything it read, and this script. */
const upToDate = () => {
  if (!existsSync(metafilePath) || !existsSync(outfile)) return false
  const builtAt = statSync(metafilePath).mtimeMs
  const inputs = [
    ...Object.keys(JSON.parse(readFileSync(metafilePath, "utf8")).inputs).map((input) => join(packageDirectory, input)),
    fileURLToPath(import.meta.url)
  ]
  return inputs.every((input) => existsSync(input) && statSync(input).mtimeMs < builtAt)
}

// the workspace's modules run nothing when imported (STYLE §2), though their packages do not say so: unused ones may go
const pureWorkspace = {
  name: "pure-workspace",
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.resolving || args.kind === "entry-point") return undefined
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { resolving: true }
      })
      if (resolved.errors.length > 0 || resolved.external) return resolved
      return resolved.path.startsWith(WORKSPACE) && !resolved.path.includes("node_modules")
        ? { ...resolved, sideEffects: false }
        : resolved
    })
  }
}

if (!upToDate()) {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: packageDirectory,
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22.19",
    // the workspace packages by what tsc built, as at run time
    conditions: ["default"],
    // CommonJS packages bundled into an ES module still call require for Node's own modules
    banner: {
      js: 'import { createRequire as __kaskoCreateRequire } from "node:module"; const require = __kaskoCreateRequire(import.meta.url);'
    },
    plugins: [pureWorkspace],
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
    minify: true
  })
  writeFileSync(metafilePath, JSON.stringify(result.metafile))
}
