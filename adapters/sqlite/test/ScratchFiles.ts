/** A temporary directory for a suite's database files: a fresh name per file, all removed after the suite. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"

export const scratchFiles = (prefix: string) => {
  const path = mkdtempSync(join(tmpdir(), prefix))
  afterAll(() => rmSync(path, { recursive: true, force: true }))
  let count = 0
  return {
    path,
    /** A fresh file name inside the directory. */
    newFile: (name: string) => join(path, `${++count}-${name}`)
  }
}
