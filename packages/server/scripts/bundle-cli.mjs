// Bundles the `kasko` command into dist/cli (run by the root's build, hence by
// `pnpm install`): what tsc compiled into dist/src, with Effect, yargs and the
// workspace packages the administration and offer commands use, tree-shaken
// into a few files that load in a fraction of the time Node takes to read
// Effect's ~700 modules one by one. Each command's work is a chunk of its own,
// loaded when it runs, so `kasko help` loads no engine.
//
// Left out of the bundle, and imported as they are at run time:
// - packages with native code or files found relative to themselves
//   (better-sqlite3, pg, pino, express and its adapter, the workbench's web
//   page, swagger-ui-dist, the PDF documents adapter with pdfkit and its font
//   files, Vega): imported by their absolute path, resolved here from the
//   package that imports them — the bundle serves this checkout;
// - the long-running commands' modules (serve, mcp, workbench) and the actuary's
//   chart commands: their start-up time is not the point, and they stay
//   exactly as tsc compiled them.
// `kasko tariff impact` is bundled with the workbench's impact code: its start
// is on every impact test's clock (bench section 11), and Effect read module by
// module took ~0.2 s of it. A bundled workspace module keeps its own
// `import.meta.url`, so the impact's worker thread is found where it is.
// When nothing the last build read has changed since, it does nothing.
import { build } from "esbuild"
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { builtinModules } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), "..")
const compiled = join(packageDirectory, "dist", "src")
const outdir = join(packageDirectory, "dist", "cli")
const metafilePath = join(packageDirectory, "dist", "cli-bundle.json")

const UNBUNDLED_PACKAGES = new Set([
  "better-sqlite3",
  "pg",
  "pino",
  "express",
  "@kasko/express",
  "@kasko/documents",
  "@kasko/workbench-web",
  "vega",
  "vega-lite",
  "swagger-ui-dist"
])
const UNBUNDLED_MODULES = new Set(
  ["ServeAction.js", "Service.js", "McpAction.js", "WorkbenchActions.js", "WorkbenchServeAction.js"].map((file) =>
    join(compiled, file)
  )
)
const BUILTINS = new Set(builtinModules)
const WORKSPACE = [join(packageDirectory, "..", "..", "packages"), join(packageDirectory, "..", "..", "adapters")].map(
  (directory) => `${directory}/`
)

const packageNameOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/")

/** Whether the last build is newer than everything it read, and this script. */
const upToDate = () => {
  if (!existsSync(metafilePath) || !existsSync(join(outdir, "kasko.mjs"))) return false
  const builtAt = statSync(metafilePath).mtimeMs
  const inputs = [
    ...Object.keys(JSON.parse(readFileSync(metafilePath, "utf8")).inputs).map((input) => join(packageDirectory, input)),
    fileURLToPath(import.meta.url)
  ]
  return inputs.every((input) => existsSync(input) && statSync(input).mtimeMs < builtAt)
}

/**
 * A bundled workspace module keeps its own `import.meta.url`: the files it finds relative to itself (the
 * impact's worker thread) stay where they are, not beside the bundle.
 */
const ownUrls = {
  name: "own-urls",
  setup(builder) {
    builder.onLoad({ filter: /\.js$/ }, (args) => {
      if (!WORKSPACE.some((directory) => args.path.startsWith(directory))) return undefined
      const source = readFileSync(args.path, "utf8")
      if (!source.includes("import.meta.url")) return undefined
      return {
        contents: source.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
        loader: "js"
      }
    })
  }
}

const keepUnbundled = {
  name: "keep-unbundled",
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.resolving || args.kind === "entry-point") return undefined
      if (args.path.startsWith("node:") || BUILTINS.has(args.path)) return { path: args.path, external: true }
      const relative = args.path.startsWith(".") || args.path.startsWith("/")
      const unbundled = relative
        ? UNBUNDLED_MODULES.has(join(args.resolveDir, args.path))
        : UNBUNDLED_PACKAGES.has(packageNameOf(args.path))
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { resolving: true }
      })
      if (resolved.errors.length > 0) return resolved
      if (unbundled) return { path: resolved.path, external: true }
      // the workspace's modules run nothing when imported (STYLE §2), though their packages do not say so: unused ones may go
      return WORKSPACE.some((directory) => resolved.path.startsWith(directory))
        ? { ...resolved, sideEffects: false }
        : resolved
    })
  }
}

if (!upToDate()) {
  rmSync(outdir, { recursive: true, force: true })
  const result = await build({
    entryPoints: { kasko: join(compiled, "main.js") },
    // the metafile names its inputs relative to this, as upToDate reads them: from the root's cwd they did
    // not exist from here, so every build (every `pnpm start`) bundled again
    absWorkingDir: packageDirectory,
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22.19",
    // the workspace packages import by their "source" condition in tests; the bundle takes what tsc built
    conditions: ["default"],
    // CommonJS packages bundled into an ES module still call require for Node's own modules
    banner: {
      js: 'import { createRequire as __kaskoCreateRequire } from "node:module"; const require = __kaskoCreateRequire(import.meta.url);'
    },
    plugins: [keepUnbundled, ownUrls],
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
    minify: true
  })
  writeFileSync(metafilePath, JSON.stringify(result.metafile))
}
