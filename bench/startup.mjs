// Start-up of the `kasko` command: wall time from spawn to exit, the bundled command (what
// `npx kasko` and `pnpm exec kasko` run) against the same commands unbundled (the compiled
// modules loaded one file at a time), interleaved in rounds, medians; and what the launcher a
// user types adds (`npx kasko`: npm's own start-up, before kasko's). Then the service's start-up
// (runServiceStartupBench, below).
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
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

// The service: from spawn to its first /health answer, `pnpm start` on a checkout that is built (as the README's
// first command runs it, through npx) against `npx kasko serve` and the kasko command itself; rounds interleaved,
// medians. Issue 30 measured 10.9 s against 2.9 s when `pnpm start` built everything on every start; its target
// is 3 s.
const SERVICE_ROUNDS = 5
const SERVICE_BUDGET_SECONDS = 3
const SERVICE_SIDES = {
  "pnpm start": ["npx", ["--yes", "pnpm@10", "start"]],
  "npx kasko serve": ["npx", ["kasko", "serve"]],
  "kasko serve": [process.execPath, [ENTRIES.bundled, "serve"]]
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/** Seconds from spawning a side to its first 200 from /health; then stops it (its process group) and waits. */
const secondsToHealth = async ([command, args], environment) => {
  const port = await freePort()
  const started = process.hrtime.bigint()
  const child = spawn(command, args, { cwd: ROOT, env: { ...environment, PORT: String(port) }, detached: true })
  let output = ""
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  const exited = new Promise((resolve) => child.once("exit", resolve))
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(" ")} exited ${child.exitCode}: ${output}`)
      const healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.ok,
        () => false
      )
      if (healthy) return Number(process.hrtime.bigint() - started) / 1e9
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  } finally {
    try {
      process.kill(-child.pid, "SIGTERM")
    } catch {
      // gone already
    }
    await exited
  }
}

export const runServiceStartupBench = async () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), "kasko-bench-serve-"))
  // a user's terminal: none of the settings `pnpm bench` gives its own scripts
  const environment = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|pnpm_)/i.test(name) && name !== "KASKO_DATABASE_URL")
  )
  environment.KASKO_DATA_DIR = dataDirectory
  try {
    // once untimed: the database and signing key made, and `pnpm start` finds its build current from here on
    for (const side of Object.values(SERVICE_SIDES)) await secondsToHealth(side, environment)
    const times = new Map()
    for (let round = 0; round < SERVICE_ROUNDS; round++) {
      for (const [name, side] of Object.entries(SERVICE_SIDES)) {
        times.set(name, [...(times.get(name) ?? []), await secondsToHealth(side, environment)])
      }
    }
    return Object.keys(SERVICE_SIDES).map((name) => ({
      command: name,
      seconds_to_first_health: median(times.get(name)),
      range_seconds: `${Math.min(...times.get(name)).toFixed(2)}–${Math.max(...times.get(name)).toFixed(2)}`,
      ...(name === "pnpm start"
        ? {
            budget_seconds: SERVICE_BUDGET_SECONDS,
            within_budget: median(times.get(name)) <= SERVICE_BUDGET_SECONDS ? "yes" : "NO"
          }
        : {})
    }))
  } finally {
    rmSync(dataDirectory, { recursive: true, force: true })
  }
}
