/**
 * How an older kasko meets a database a newer one migrated: `kasko serve` refuses it, and the operations guide
 * ("Downgrading") quotes the words it refuses with. For SqliteUpgrade.test.ts and PostgresUpgrade.test.ts.
 */
import { spawn } from "node:child_process"
import { join } from "node:path"
import { BIN, ROOT, SERVICE_ENVIRONMENT } from "./UpgradeFixture.js"

/**
 * How `kasko serve` (this checkout's command, a process of its own) ends on the database `environment` names:
 * its exit code and standard error, and whether it served instead (then it is stopped at once).
 */
export const serveOnce = (
  environment: Record<string, string>
): Promise<{ readonly code: number | null; readonly stderr: string; readonly served: boolean }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "serve"], {
      env: { ...process.env, ...SERVICE_ENVIRONMENT, ...environment },
      stdio: ["ignore", "ignore", "pipe"]
    })
    let stderr = ""
    let served = false
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
      if (!served && stderr.includes("serves on")) {
        served = true
        child.kill("SIGTERM")
      }
    })
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stderr, served }))
  })

/** The operations guide, which quotes the refusal an older kasko prints. */
export const OPERATIONS_GUIDE = join(ROOT, "docs", "operations", "README.md")

/** A refusal's words without what differs from one database to another: its name and the schema versions. */
export const refusalWords = (line: string): string =>
  line
    .replace(/cannot start kasko on .*?: the database/g, "cannot start kasko on …: the database")
    .replace(/schema version \d+/g, "schema version N")
    .replace(/up to \d+/g, "up to M")
