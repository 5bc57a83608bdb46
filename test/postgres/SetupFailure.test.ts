/**
 * A run whose PostgreSQL setup fails ends non-zero and says why — it once
 * printed RUN and ended 0 having run nothing: the embedded server exited early,
 * the library's stop() waited for an exit that had already happened, and
 * vitest's event loop emptied with the setup still pending.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir, userInfo } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs")
const scratch = mkdtempSync(join(tmpdir(), "kasko-setup-failure-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

// longer than TestDatabaseSetup.ts's deadline (180 s): a setup that hangs is seen to end, then the child is killed
const CHILD_LIMIT_MILLIS = 200_000

/** One PostgreSQL suite run in a child vitest with `environment`: its exit code and output. */
const runPostgresProject = (environment: Record<string, string>) =>
  new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, "run", "--project", "postgres", "test/postgres/SetupPackages"], {
      cwd: ROOT,
      env: { ...process.env, ...environment, CI: "true", FORCE_COLOR: "0", VITEST: "", VITEST_WORKER_ID: "" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += String(chunk)))
    child.stderr.on("data", (chunk) => (output += String(chunk)))
    const limit = setTimeout(() => child.kill("SIGKILL"), CHILD_LIMIT_MILLIS)
    child.on("error", reject)
    child.on("exit", (code) => {
      clearTimeout(limit)
      resolve({ code, output })
    })
  })

/** The lowest port an ordinary user may bind (Linux), 1024 where it cannot be read. */
const firstUnprivilegedPort = (): number => {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_unprivileged_port_start", "utf8").trim())
  } catch {
    return 1024
  }
}

describe("a PostgreSQL test run whose setup fails", () => {
  // as root (CI), the embedded server runs as the user postgres, which cannot bind a privileged port: the
  // case that once passed silently. As another user that port is not ours either, so the run picks another and
  // would succeed; and where every port is unprivileged (some containers) postgres binds it. There, setup fails
  // on a temporary directory that is a file.
  const asRoot = userInfo().uid === 0 && firstUnprivilegedPort() > 1
  const notADirectory = join(scratch, "not-a-directory")
  writeFileSync(notADirectory, "")
  const failing = asRoot
    ? { environment: { KASKO_TEST_DATABASE_URL: "postgres://postgres@127.0.0.1:1/test" }, reason: "could not bind" }
    : {
        environment: { KASKO_TEST_DATABASE_URL: "postgres://postgres@127.0.0.1:1/test", TMPDIR: notADirectory },
        reason: "ENOTDIR"
      }

  it("exits non-zero, saying why the embedded server did not start", {
    timeout: CHILD_LIMIT_MILLIS + 10_000
  }, async () => {
    const { code, output } = await runPostgresProject(failing.environment)
    expect(code).not.toBe(0)
    expect(output).toContain("the embedded PostgreSQL did not start")
    expect(output).toContain(failing.reason)
  })
})
