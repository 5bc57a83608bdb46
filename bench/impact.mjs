// Rate impact over a portfolio (issue 32): 1 000 000 generated policies through `kasko tariff impact`
// under two versions (the shipped tariffs against the rebalanced leasing proposal of
// examples/actuary-workbench/impact), the command as a user runs it, once with one worker thread and
// once with two, interleaved in rounds, medians: wall time from spawn to exit, cases per second, the
// process's peak resident set (VmHWM from /proc, sampled while it runs: the worker threads are in it)
// and the speed-up the second worker gives (of the medians; beside it, of each side's least disturbed
// round). Targets: ≤ 10 s, ≤ 400 MB, speed-up ≥ 1.6.
import { spawn, spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"

const ROOT = join(import.meta.dirname, "..")
const KASKO = join(ROOT, "packages", "server", "bin", "kasko.mjs")
const OLD = join(ROOT, "packages", "core", "tariffs")
const PROPOSAL = join(ROOT, "examples", "actuary-workbench", "impact", "insurance-car-leasing-v2-rebalance.json")
const STANDALONE = join(OLD, "insurance-car-standalone", "v1.json")
const CASES = Number(process.env.KASKO_BENCH_IMPACT_CASES ?? 1_000_000)
const ROUNDS = Number(process.env.KASKO_BENCH_ROUNDS ?? 3)
const TARGETS = { seconds: 10, rss_mb: 400, speed_up: 1.6 }

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** The peak resident set of a process so far, in MB (Linux's /proc), or undefined where there is none. */
const peakRssMb = (pid) => {
  try {
    const kilobytes = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kilobytes === undefined ? undefined : Number(kilobytes) / 1024
  } catch {
    return undefined
  }
}

/** The CPU seconds a process has used so far, its threads included (Linux's /proc), or undefined. */
const cpuSeconds = (pid) => {
  try {
    // the fields after the command's name (in parentheses): utime and stime are the 12th and 13th, in clock ticks
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return undefined
  }
}
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100

/** One run of the command: its wall time, its peak RSS, and the totals it printed (to check every run agrees). */
const impactRun = (book, newSide, workers) =>
  new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(
      process.execPath,
      [KASKO, "tariff", "impact", OLD, newSide, "--portfolio", book, "--workers", String(workers), "--json"],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] }
    )
    let peak = 0
    let cpu = 0
    const sample = () => {
      peak = Math.max(peak, peakRssMb(child.pid) ?? 0)
      cpu = Math.max(cpu, cpuSeconds(child.pid) ?? 0)
    }
    const sampler = setInterval(sample, 20)
    const out = []
    const err = []
    child.stdout.on("data", (chunk) => out.push(chunk))
    child.stderr.on("data", (chunk) => err.push(chunk))
    // the high-water mark is read once more as the output ends, just before the process goes
    child.stdout.on("end", sample)
    child.on("error", reject)
    child.on("close", (code) => {
      clearInterval(sampler)
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      if (code !== 0) return reject(new Error(`kasko tariff impact exited ${code}: ${Buffer.concat(err)}`))
      const totals = JSON.parse(Buffer.concat(out).toString("utf8")).report.totals
      resolve({ seconds, rss_mb: peak, cpu_seconds: cpu, totals })
    })
  })

export const runImpactBench = async () => {
  const directory = mkdtempSync(join(tmpdir(), "kasko-bench-impact-"))
  const book = join(directory, "book.csv")
  // the new side prices both products, so every case of the book is priced twice: the proposal for leasing, and
  // the standalone product's version as it is
  const newSide = join(directory, "new")
  mkdirSync(newSide)
  copyFileSync(PROPOSAL, join(newSide, "insurance-car-leasing-v2-rebalance.json"))
  copyFileSync(STANDALONE, join(newSide, "insurance-car-standalone-v1.json"))
  try {
    const generated = spawnSync(
      process.execPath,
      [KASKO, "portfolio", "generate", "--size", String(CASES), "--seed", "32", "--as-of", "2027-01-01", "--out", book],
      { cwd: ROOT, encoding: "utf8" }
    )
    if (generated.status !== 0) throw new Error(`kasko portfolio generate failed: ${generated.stderr}`)
    const load_before = loadavg()[0]
    // an untimed run first: the page cache holds the book for every timed one alike
    const reference = (await impactRun(book, newSide, 2)).totals
    if (reference.policies !== CASES) throw new Error(`priced ${reference.policies} of ${CASES} cases`)
    const runs = { 1: [], 2: [] }
    for (let round = 0; round < ROUNDS; round++) {
      // the order alternates, so neither side always runs on the warmer machine
      for (const workers of round % 2 === 0 ? [1, 2] : [2, 1]) {
        const run = await impactRun(book, newSide, workers)
        if (JSON.stringify(run.totals) !== JSON.stringify(reference))
          throw new Error(`${workers} worker(s) reported other totals than the first run`)
        runs[workers].push(run)
      }
    }
    const load_after = loadavg()[0]
    const row = (workers) => {
      const seconds = median(runs[workers].map((run) => run.seconds))
      const rss_mb = median(runs[workers].map((run) => run.rss_mb))
      const cpu_seconds = median(runs[workers].map((run) => run.cpu_seconds))
      // how many cores the run had on average: on a shared machine, what caps the speed-up
      return {
        workers,
        cases: CASES,
        seconds,
        // the least disturbed round: on a shared machine, the closest to what the command does alone
        best_seconds: Math.min(...runs[workers].map((run) => run.seconds)),
        cases_per_second: CASES / seconds,
        peak_rss_mb: rss_mb,
        cpu_seconds,
        cores_used: cpu_seconds / seconds
      }
    }
    const [one, two] = [row(1), row(2)]
    const speed_up = one.seconds / two.seconds
    return {
      rows: [
        { ...one, speed_up_vs_one_worker: 1 },
        { ...two, speed_up_vs_one_worker: speed_up }
      ],
      speed_up,
      speed_up_of_best_rounds: one.best_seconds / two.best_seconds,
      targets: TARGETS,
      met: {
        seconds: two.seconds <= TARGETS.seconds,
        rss_mb: Math.max(one.peak_rss_mb, two.peak_rss_mb) <= TARGETS.rss_mb,
        speed_up: speed_up >= TARGETS.speed_up
      },
      rounds: ROUNDS,
      every_round_seconds: {
        one_worker: runs[1].map((run) => run.seconds),
        two_workers: runs[2].map((run) => run.seconds)
      },
      load_average_1min: { before: load_before, after: load_after }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runImpactBench()
  console.table(result.rows)
  console.log(JSON.stringify({ ...result, rows: undefined }, null, 2))
}
