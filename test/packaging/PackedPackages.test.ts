/**
 * What would be published works on its own: @kasko/core and @kasko/memory are
 * packed (`pnpm pack`: built dist, exports map, declarations), installed into
 * a directory outside the workspace, and the embedding example runs and
 * type-checks against them.
 */
import { execFileSync } from "node:child_process"
import { copyFileSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { EMBED_EXAMPLE, temporaryDirectory } from "../support.js"
import { pnpm } from "./Pnpm.js"

const ROOT = join(import.meta.dirname, "..", "..")
const directory = temporaryDirectory("kasko-packed-")
/** A workspace package's version, as its tarball's name carries it. */
const versionOf = (packageDirectory: string): string =>
  (JSON.parse(readFileSync(join(ROOT, packageDirectory, "package.json"), "utf8")) as { version: string }).version
afterAll(() => directory.remove())

describe("the packed packages", () => {
  it("install outside the workspace, run the embedding example and type-check it", () => {
    for (const packageDirectory of ["packages/core", "adapters/memory"]) {
      pnpm(["pack", "--pack-destination", directory.path], join(ROOT, packageDirectory))
    }
    writeFileSync(
      join(directory.path, "package.json"),
      JSON.stringify({
        name: "kasko-pack-check",
        private: true,
        type: "module",
        dependencies: {
          "@kasko/core": `file:./kasko-core-${versionOf("packages/core")}.tgz`,
          "@kasko/memory": `file:./kasko-memory-${versionOf("adapters/memory")}.tgz`,
          effect: "4.1.0"
        },
        devDependencies: { "@types/node": "^24.10.0" }
      })
    )
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: directory.path,
      encoding: "utf8"
    })

    copyFileSync(join(EMBED_EXAMPLE, "dist", "src", "main.js"), join(directory.path, "main.js"))
    const output = execFileSync(process.execPath, ["main.js"], { cwd: directory.path, encoding: "utf8" })
    expect(output).toContain("effect: offer 13002 kr a year or 1138 kr a month, 5 coverages")
    expect(output).toContain("promise: another partner gets QuoteNotFound")

    copyFileSync(join(EMBED_EXAMPLE, "src", "main.ts"), join(directory.path, "main.ts"))
    writeFileSync(
      join(directory.path, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          exactOptionalPropertyTypes: true,
          noEmit: true,
          types: ["node"],
          skipLibCheck: false
        },
        files: ["main.ts"]
      })
    )
    // the workspace's compiler, the packed declarations: no path leads back into the workspace
    execFileSync(
      process.execPath,
      [join(ROOT, "node_modules", "@typescript", "native", "bin", "tsc"), "-p", directory.path],
      {
        encoding: "utf8"
      }
    )
  }, 180_000)
})
