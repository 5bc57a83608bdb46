// HTTP section: the service's endpoints against the service a team would write by hand instead
// (rival/: Express 5, helmet, express-rate-limit, pino, jose, better-sqlite3; the same requests,
// the same answers) and two baselines answering a fixed body of the same size — bare Express 5
// (the framework under kasko) and bare node:http (the runtime's limit) — on loopback with
// autocannon. The sides are interleaved in rounds and each figure is the median of its rounds,
// so the machine's drift hits every side alike.
import { Examples } from "@kasko/core"
import { runCli } from "@kasko/server"
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { SERVICE_NODE_FLAGS } from "@kasko/server/service-node-flags"
import { checkRivalMatchesKasko, prepareRivalDirectory } from "./http-rival.mjs"

const ROUNDS = Number(process.env.KASKO_BENCH_ROUNDS ?? 3)
const DURATION_SECONDS = Number(process.env.KASKO_BENCH_SECONDS ?? 5)
const CONNECTIONS = 32

export const startServer = (...args) =>
  new Promise((resolve, reject) => {
    // kasko with the flags its `kasko serve` launcher starts the service with
    const nodeFlags = args[0] === "kasko" ? SERVICE_NODE_FLAGS : []
    const child = spawn(process.execPath, [...nodeFlags, join(import.meta.dirname, "http-server.mjs"), ...args], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    child.on("error", reject)
    createInterface({ input: child.stdout }).once("line", (line) =>
      resolve({ child, url: `http://127.0.0.1:${JSON.parse(line).port}` })
    )
  })

export const stopServer = ({ child }) =>
  new Promise((resolve) => {
    child.once("exit", resolve)
    child.kill("SIGTERM")
  })

export const load = (options, seconds = DURATION_SECONDS) =>
  new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: seconds, ...options }, (error, result) =>
      error ? reject(error) : resolve(result)
    )
  })

/** A process's resident set in MB (Linux's /proc), or undefined where there is none. */
export const rssMegabytes = (pid) => {
  try {
    const kilobytes = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kilobytes === undefined ? undefined : Number(kilobytes) / 1024
  } catch {
    return undefined
  }
}

/** One load of `options`; with a server's `pid`, its largest resident set while under the load (sampled every 100 ms). */
export const measure = async (name, options, pid) => {
  let rss
  const sampler =
    pid === undefined
      ? undefined
      : setInterval(() => {
          const now = rssMegabytes(pid)
          if (now !== undefined) rss = Math.max(rss ?? 0, now)
        }, 100)
  const result = await load(options).finally(() => clearInterval(sampler))
  const failures = result.non2xx + result.errors + result.timeouts
  if (failures > 0)
    throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`)
  return {
    requests_per_second: result.requests.average,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests: result.requests.total,
    ...(rss === undefined ? {} : { rss_mb: rss })
  }
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length % 2 === 1
    ? sorted[(sorted.length - 1) / 2]
    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2
}

export const medianOf = (runs) => ({
  requests_per_second: median(runs.map((run) => run.requests_per_second)),
  p50_ms: median(runs.map((run) => run.p50_ms)),
  p99_ms: median(runs.map((run) => run.p99_ms)),
  ...(runs.every((run) => run.rss_mb !== undefined)
    ? { rss_under_load_mb: Math.round(median(runs.map((run) => run.rss_mb))) }
    : {})
})

export const kaskoAdmin = async (dataDirectory, ...args) => {
  process.env.KASKO_DATA_DIR = dataDirectory
  const result = await runCli(args)
  if (result.exitCode !== 0) throw new Error(result.stderr)
  return result.stdout
}

/** Adds the bench partner to a data directory and issues it a token: the headers its requests carry. */
export const benchPartner = async (directory, scopes = "offers:create quotes:create quotes:read") => {
  const { subscription_key } = JSON.parse(
    await kaskoAdmin(directory, "partners", "add", "--id", "bench-partner", "--name", "Bench Partner A/S", "--json")
  )
  const token = (
    await kaskoAdmin(directory, "tokens", "issue", "--partner", "bench-partner", "--scopes", scopes, "--ttl", "1h")
  ).trim()
  return {
    "content-type": "application/json",
    authorization: `Bearer ${token}`,
    "ocp-apim-subscription-key": subscription_key
  }
}

export const runHttpBench = async () => {
  const directory = mkdtempSync(join(tmpdir(), "kasko-http-bench-"))
  const servers = []
  try {
    const headers = await benchPartner(directory)
    const offerBody = JSON.stringify(
      Examples.offerRequest(Examples.standardParameters({ vehicle_price: "350000", youngest_user_age: "23" }))
    )
    const quoteBody = JSON.stringify(Examples.quoteRequest())

    const rivalDirectory = prepareRivalDirectory(directory, headers)

    // each server's resident set as it announces its port, before any request
    const idleRss = {}
    const kasko = await startServer("kasko", directory)
    servers.push(kasko)
    idleRss.kasko = rssMegabytes(kasko.child.pid)
    const rival = await startServer("rival", rivalDirectory)
    servers.push(rival)
    idleRss.rival = rssMegabytes(rival.child.pid)
    const rivalQuoteId = await checkRivalMatchesKasko(
      kasko.url,
      rival.url,
      headers,
      JSON.parse(offerBody),
      JSON.parse(quoteBody)
    )
    const offer = await (
      await fetch(`${kasko.url}/insurance/car/offers`, { method: "POST", headers, body: offerBody })
    ).text()
    const quote = await (
      await fetch(`${kasko.url}/insurance/car/quotes`, { method: "POST", headers, body: quoteBody })
    ).text()
    const quoteId = JSON.parse(quote).quote_id
    const sizes = join(directory, "sizes.json")
    writeFileSync(sizes, JSON.stringify({ offer: Buffer.byteLength(offer), quote: Buffer.byteLength(quote) }))
    const express = await startServer("express", sizes)
    servers.push(express)
    idleRss.express = rssMegabytes(express.child.pid)
    const node = await startServer("node", sizes)
    servers.push(node)
    idleRss.node = rssMegabytes(node.child.pid)

    const endpoints = [
      {
        name: "POST /insurance/car/offers",
        kasko: { url: `${kasko.url}/insurance/car/offers`, method: "POST", body: offerBody },
        rival: { url: `${rival.url}/insurance/car/offers`, method: "POST", body: offerBody },
        baseline: { path: "/offers", method: "POST", body: offerBody }
      },
      {
        name: "POST /insurance/car/quotes (SQLite FULL)",
        kasko: { url: `${kasko.url}/insurance/car/quotes`, method: "POST", body: quoteBody },
        rival: { url: `${rival.url}/insurance/car/quotes`, method: "POST", body: quoteBody },
        baseline: { path: "/quotes", method: "POST", body: quoteBody }
      },
      {
        name: "GET /insurance/car/quotes/{id}",
        kasko: { url: `${kasko.url}/insurance/car/quotes/${quoteId}`, method: "GET" },
        rival: { url: `${rival.url}/insurance/car/quotes/${rivalQuoteId}`, method: "GET" },
        baseline: { path: "/quotes/x", method: "GET" }
      }
    ]
    const rows = []
    for (const endpoint of endpoints) {
      const sides = {
        kasko: { ...endpoint.kasko, headers },
        rival: { ...endpoint.rival, headers },
        express: {
          url: `${express.url}${endpoint.baseline.path}`,
          method: endpoint.baseline.method,
          headers,
          ...(endpoint.baseline.body === undefined ? {} : { body: endpoint.baseline.body })
        },
        node: {
          url: `${node.url}${endpoint.baseline.path}`,
          method: endpoint.baseline.method,
          headers,
          ...(endpoint.baseline.body === undefined ? {} : { body: endpoint.baseline.body })
        }
      }
      for (const options of Object.values(sides)) await load(options, 1)
      const runs = { kasko: [], rival: [], express: [], node: [] }
      const pids = { kasko: kasko.child.pid, rival: rival.child.pid, express: express.child.pid, node: node.child.pid }
      for (let round = 0; round < ROUNDS; round++)
        for (const [side, options] of Object.entries(sides))
          runs[side].push(await measure(`${endpoint.name} ${side}`, options, pids[side]))
      const medians = Object.fromEntries(Object.entries(runs).map(([side, sideRuns]) => [side, medianOf(sideRuns)]))
      const row = (side, name) => ({
        endpoint: name,
        ...medians[side],
        idle_rss_mb: Math.round(idleRss[side]),
        vs_express: medians[side].requests_per_second / medians.express.requests_per_second,
        p99_vs_express: medians[side].p99_ms / medians.express.p99_ms,
        rounds_requests_per_second: runs[side].map((run) => Math.round(run.requests_per_second)).join(" / ")
      })
      const versusRival = (side) => ({
        vs_rival: medians[side].requests_per_second / medians.rival.requests_per_second,
        p99_vs_rival: medians[side].p99_ms / medians.rival.p99_ms,
        rss_vs_rival: medians[side].rss_under_load_mb / medians.rival.rss_under_load_mb
      })
      rows.push(
        row("node", `bare node:http, same ${endpoint.baseline.method} body`),
        row("express", `bare Express 5, same ${endpoint.baseline.method} body`),
        { ...row("rival", `hand-written rival, ${endpoint.name}`), ...versusRival("rival") },
        {
          ...row("kasko", endpoint.name),
          ...versusRival("kasko"),
          vs_node_http: medians.kasko.requests_per_second / medians.node.requests_per_second
        }
      )
    }
    return rows
  } finally {
    await Promise.all(servers.map(stopServer))
    rmSync(directory, { recursive: true, force: true })
  }
}

// `node bench/http.mjs` runs this section alone
if (import.meta.url === `file://${process.argv[1]}`) console.table(await runHttpBench())
