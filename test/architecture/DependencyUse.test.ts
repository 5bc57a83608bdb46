/**
 * Every package.json says what its package uses, no more and no less: knip,
 * configured in `knip.config.ts` beside this file, finds no unused dependency,
 * no import or command of a package the importing workspace does not declare,
 * no unresolved import and no file reached from no entry point. A failure is
 * knip's own report: the package.json line, or the file and line of the import.
 */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const KNIP = join(import.meta.dirname, "..", "node_modules", ".bin", "knip")
const CONFIG = join(import.meta.dirname, "knip.config.ts")

describe("the packages' dependencies", () => {
  it("are each used, and every import and command is declared by the workspace that uses it", () => {
    const { FORCE_COLOR: _colour, ...environment } = process.env
    const knip = spawnSync(KNIP, ["--config", CONFIG, "--no-progress"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...environment, NO_COLOR: "1" }
    })
    expect(knip.status, `knip (test/architecture/knip.config.ts) reports:\n${knip.stdout}${knip.stderr}`).toBe(0)
  })
})
