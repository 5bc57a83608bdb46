/**
 * Soak: SQLite stores opened, used and closed in a loop, with forced garbage collection, in a process of
 * its own (`--expose-gc`) on the Node that runs the suite. better-sqlite3 12 aborted the whole process on
 * Node 24.19+ this way (`Assertion failed: (env) != nullptr` as a collected statement's destructor ran),
 * every time in six runs of this loop; 13, on Node-API, must let it exit 0.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const directory = mkdtempSync(join(tmpdir(), "kasko-soak-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

// enough rounds that a statement collected after its database closed is not missed (about 3 s here)
const ROUNDS = 64

describe("SQLite stores under garbage collection", () => {
  it(`open, use and close ${ROUNDS} times with forced collections, and the process exits 0`, () => {
    const child = spawnSync(
      process.execPath,
      ["--expose-gc", join(import.meta.dirname, "soak-child.mjs"), directory, String(ROUNDS), "120"],
      { encoding: "utf8", timeout: 150_000 }
    )
    expect({ status: child.status, signal: child.signal }, child.stderr).toEqual({ status: 0, signal: null })
    expect(JSON.parse(child.stdout)).toEqual({ rounds: ROUNDS })
  })
})
