// Memory section: runs memory-child.mjs in its own process with --expose-gc.
import { execFileSync } from "node:child_process"
import { join } from "node:path"

export const runMemoryBench = () =>
  JSON.parse(
    execFileSync(process.execPath, ["--expose-gc", join(import.meta.dirname, "memory-child.mjs")], { encoding: "utf8" })
  )
