/**
 * Concurrent quote inserts share one SQLite commit, and the waiting requests are resumed after it.
 * Effect 4 runs a resumed request on the spot, its exit observers included: something an observer
 * throws must neither be taken for a database failure (the group then re-committed one by one, and
 * the quotes already stored failing as duplicates) nor leave the rest of the group unanswered.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"

const directory = mkdtempSync(join(tmpdir(), "kasko-group-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

it("answers every quote of a group as created when one request's exit observer throws", () => {
  const child = spawnSync(process.execPath, [join(import.meta.dirname, "group-commit-child.mjs"), directory], {
    encoding: "utf8",
    timeout: 60_000
  })
  expect(child.status, child.stderr).toBe(0)
  expect(JSON.parse(child.stdout)).toEqual({
    answers: ["created", "created", "created"],
    stored: 3,
    uncaught: ["the first request's observer threw"]
  })
})
