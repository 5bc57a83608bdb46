// Start-up of the `kasko` command: wall time from spawn to exit, the bundled command (what
// `npx kasko` and `pnpm exec kasko` run) against the same commands unbundled (the compiled
// modules loaded one file at a time), interleaved in rounds, medians; and what the launcher a
// user types adds (`npx kasko`: npm's own start-up, before kasko's).
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const ROUNDS = 5
const SERVER = join(import.meta.dirname, "..", "packages", "server")
const ROOT = join(SERVER, "..", "..")
const NPX = { command: "npx", prefix: ["kasko"] }
const ENTRIES = {
  bundled: join(SERVER, "bin", "kasko.mjs"),
  unbundled: join(SERVER, "dist", "src", "main.js"),
  through_npx: NPX
}
// the budgets of issue 15, in seconds
const COMMANDS = [
  { command: "kasko help", args: ["help"], budget_seconds: 0.3 },
  { command: "kasko partners list", args: ["partners", "list"], budget_seconds: 0.6 }
]

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const wallSeconds = (entry, args, environment) => {
  const [command, prefix] = entry === NPX ? [NPX.command, NPX.prefix] : [process.execPath, [entry]]
  const started = process.hrtime.bigint()
  const ran = spawnSync(command, [...prefix, ...args], { cwd: ROOT, env: environment, encoding: "utf8" })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  if (ran.status !== 0)
    throw new Error(`${command} ${[...prefix, ...args].join(" ")} exited ${ran.status}: ${ran.stderr}`)
  return seconds
}

export const runStartupBench = () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), "kasko-bench-startup-"))
  const environment = { ...process.env, KASKO_DATA_DIR: dataDirectory }
  delete environment.KASKO_DATABASE_URL
  try {
    // the database exists before the first timed call, as on a machine already in use
    wallSeconds(ENTRIES.bundled, ["partners", "list"], environment)
    const times = new Map()
    for (let round = 0; round < ROUNDS; round++) {
      for (const { command, args } of COMMANDS) {
        for (const [side, entry] of Object.entries(ENTRIES)) {
          const key = `${command} ${side}`
          times.set(key, [...(times.get(key) ?? []), wallSeconds(entry, args, environment)])
        }
      }
    }
    return COMMANDS.map(({ command, budget_seconds }) => {
      const bundled = median(times.get(`${command} bundled`))
      const unbundled = median(times.get(`${command} unbundled`))
      const throughNpx = median(times.get(`${command} through_npx`))
      return {
        command,
        bundled_seconds: bundled,
        unbundled_seconds: unbundled,
        bundled_vs_unbundled: bundled / unbundled,
        through_npx_seconds: throughNpx,
        budget_seconds,
        within_budget: bundled <= budget_seconds ? "yes" : "NO"
      }
    })
  } finally {
    rmSync(dataDirectory, { recursive: true, force: true })
  }
}
