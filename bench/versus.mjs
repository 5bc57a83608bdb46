// Two kasko checkouts against each other over HTTP: this one and another, built (a `git worktree add ../before <commit>`
// then `pnpm install` there), each serving its own data directory as `pnpm bench`'s HTTP section serves kasko. The
// offer, quote and GET endpoints are loaded side by side in interleaved rounds, and each figure is the median of its
// rounds: what a change costs on the request path, measured in one run on the same machine. Besides requests a
// second (which the load generator, on the same cores, sways by several per cent from round to round), each side's
// server main thread's CPU time per request is read from Linux's /proc (absent elsewhere): the request path's own cost.
//
//   node bench/versus.mjs ../before          (KASKO_BENCH_ROUNDS, default 3; KASKO_BENCH_SECONDS, default 5;
//                                             KASKO_BENCH_ENDPOINTS, default offers,quotes,GET)
import { Examples } from "@kasko/core"
import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { SERVICE_NODE_FLAGS } from "@kasko/server/service-node-flags"
import { load, measure, median, medianOf } from "./http.mjs"

const ROUNDS = Number(process.env.KASKO_BENCH_ROUNDS ?? 3)
// some of them, e.g. KASKO_BENCH_ENDPOINTS=offers,GET
const ENDPOINTS = (process.env.KASKO_BENCH_ENDPOINTS ?? "offers,quotes,GET").split(",")
const unknown = ENDPOINTS.filter((endpoint) => !["offers", "quotes", "GET"].includes(endpoint))
if (unknown.length > 0) {
  process.stderr.write(`KASKO_BENCH_ENDPOINTS: ${unknown.join(", ")} unknown; offers, quotes and GET are measured\n`)
  process.exit(2)
}
const other = process.argv[2]
if (other === undefined || !existsSync(join(other, "bench", "http-server.mjs"))) {
  process.stderr.write("usage: node bench/versus.mjs <another built kasko checkout>\n")
  process.exit(2)
}
const checkouts = { this: resolve(import.meta.dirname, ".."), other: resolve(other) }

/** A partner of a checkout's own data directory, made by that checkout's `kasko`: the headers its requests carry. */
const partnerOf = (checkout, directory) => {
  const kasko = (...args) =>
    execFileSync(process.execPath, [join(checkout, "packages", "server", "bin", "kasko.mjs"), ...args], {
      encoding: "utf8",
      env: { ...process.env, KASKO_DATA_DIR: directory }
    })
  const { subscription_key } = JSON.parse(
    kasko("partners", "add", "--id", "bench-partner", "--name", "Bench A/S", "--json")
  )
  const scopes = "offers:create quotes:create quotes:read"
  const token = kasko("tokens", "issue", "--partner", "bench-partner", "--scopes", scopes, "--ttl", "1h").trim()
  return {
    "content-type": "application/json",
    authorization: `Bearer ${token}`,
    "ocp-apim-subscription-key": subscription_key
  }
}

const startKasko = (checkout, directory) =>
  new Promise((resolvePort, reject) => {
    const child = spawn(
      process.execPath,
      [...SERVICE_NODE_FLAGS, join(checkout, "bench", "http-server.mjs"), "kasko", directory],
      {
        stdio: ["ignore", "pipe", "inherit"]
      }
    )
    child.on("error", reject)
    child.once("exit", (code) => reject(new Error(`${checkout}'s kasko exited (${code}) before it served`)))
    createInterface({ input: child.stdout }).once("line", (line) =>
      resolvePort({ child, url: `http://127.0.0.1:${JSON.parse(line).port}` })
    )
  })

/** Nanoseconds a process's main thread has run on a CPU (Linux's schedstat), or undefined where there is none. */
const mainThreadNanoseconds = (pid) => {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0])
  } catch {
    return undefined
  }
}

/** One load of a side's endpoint, with the CPU time its server's main thread spent per request (µs). */
const measureWithCpu = async (name, options, pid) => {
  const before = mainThreadNanoseconds(pid)
  const result = await measure(name, options)
  const after = mainThreadNanoseconds(pid)
  return {
    ...result,
    ...(before === undefined || after === undefined ? {} : { cpu_us: (after - before) / 1000 / result.requests })
  }
}

const work = mkdtempSync(join(tmpdir(), "kasko-versus-"))
const servers = []
try {
  const offerBody = JSON.stringify(
    Examples.offerRequest(Examples.standardParameters({ vehicle_price: "350000", youngest_user_age: "23" }))
  )
  const quoteBody = JSON.stringify(Examples.quoteRequest())
  const sides = {}
  for (const [name, checkout] of Object.entries(checkouts)) {
    const directory = join(work, name)
    const headers = partnerOf(checkout, directory)
    const server = await startKasko(checkout, directory)
    servers.push(server)
    const quote = await (
      await fetch(`${server.url}/insurance/car/quotes`, { method: "POST", headers, body: quoteBody })
    ).json()
    sides[name] = {
      pid: server.child.pid,
      offers: { url: `${server.url}/insurance/car/offers`, method: "POST", headers, body: offerBody },
      quotes: { url: `${server.url}/insurance/car/quotes`, method: "POST", headers, body: quoteBody },
      GET: { url: `${server.url}/insurance/car/quotes/${quote.quote_id}`, method: "GET", headers }
    }
  }
  // the median CPU time per request of each side, and their ratio (this over other: below 1 is cheaper)
  const cpuColumns = (runs) => {
    const [mine, theirs] = [runs.this, runs.other].map((side) =>
      side.every((run) => run.cpu_us !== undefined) ? median(side.map((run) => run.cpu_us)) : undefined
    )
    return mine === undefined || theirs === undefined
      ? {}
      : {
          this_cpu_us: Math.round(mine),
          other_cpu_us: Math.round(theirs),
          cpu_ratio: Number((mine / theirs).toFixed(3))
        }
  }
  const rows = []
  for (const endpoint of ENDPOINTS) {
    for (const side of Object.values(sides)) await load(side[endpoint], 1)
    const runs = { this: [], other: [] }
    for (let round = 0; round < ROUNDS; round++)
      for (const name of round % 2 === 0 ? ["this", "other"] : ["other", "this"])
        runs[name].push(await measureWithCpu(`${name} ${endpoint}`, sides[name][endpoint], sides[name].pid))
    const [mine, theirs] = [medianOf(runs.this), medianOf(runs.other)]
    rows.push({
      endpoint,
      this_rps: Math.round(mine.requests_per_second),
      other_rps: Math.round(theirs.requests_per_second),
      ratio: Number((mine.requests_per_second / theirs.requests_per_second).toFixed(3)),
      this_p99_ms: mine.p99_ms,
      other_p99_ms: theirs.p99_ms,
      ...cpuColumns(runs)
    })
  }
  process.stdout.write(`this: ${checkouts.this}\nother: ${checkouts.other}\n`)
  console.table(rows)
} finally {
  for (const { child } of servers) child.kill("SIGTERM")
  rmSync(work, { recursive: true, force: true })
}
