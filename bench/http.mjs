// HTTP section: the service's endpoints against a bare Express 5 endpoint returning a fixed
// body of the same size, on loopback with autocannon, measured in one run.
import { Examples } from "@kasko/core"
import { runCli } from "@kasko/server"
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"

const DURATION_SECONDS = 8
const CONNECTIONS = 32

const startServer = (...args) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, "http-server.mjs"), ...args], { stdio: ["ignore", "pipe", "inherit"] })
    child.on("error", reject)
    createInterface({ input: child.stdout }).once("line", (line) => resolve({ child, url: `http://127.0.0.1:${JSON.parse(line).port}` }))
  })

const stopServer = ({ child }) => new Promise((resolve) => { child.once("exit", resolve); child.kill("SIGTERM") })

const load = (options) =>
  new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION_SECONDS, ...options }, (error, result) => (error ? reject(error) : resolve(result)))
  })

const measure = async (name, options) => {
  const result = await load(options)
  const failures = result.non2xx + result.errors + result.timeouts
  if (failures > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`)
  return { endpoint: name, requests_per_second: result.requests.average, p50_ms: result.latency.p50, p99_ms: result.latency.p99 }
}

const kaskoAdmin = async (dataDirectory, ...args) => {
  process.env.KASKO_DATA_DIR = dataDirectory
  const result = await runCli(args)
  if (result.exitCode !== 0) throw new Error(result.stderr)
  return result.stdout
}

export const runHttpBench = async () => {
  const directory = mkdtempSync(join(tmpdir(), "kasko-http-bench-"))
  try {
    const { subscription_key } = JSON.parse(await kaskoAdmin(directory, "partners", "add", "--id", "bench-partner", "--name", "Bench Partner A/S"))
    const token = (await kaskoAdmin(directory, "tokens", "issue", "--partner", "bench-partner", "--scopes", "offers:create quotes:create quotes:read", "--ttl", "1h")).trim()
    const headers = { "content-type": "application/json", authorization: `Bearer ${token}`, "ocp-apim-subscription-key": subscription_key }
    const offerBody = JSON.stringify(Examples.offerRequest(Examples.standardParameters({ vehicle_price: "350000", youngest_user_age: "23" })))
    const quoteBody = JSON.stringify(Examples.quoteRequest())

    const kasko = await startServer("kasko", directory)
    let rows
    try {
      const offer = await (await fetch(`${kasko.url}/insurance/car/offers`, { method: "POST", headers, body: offerBody })).text()
      const quote = await (await fetch(`${kasko.url}/insurance/car/quotes`, { method: "POST", headers, body: quoteBody })).text()
      const quoteId = JSON.parse(quote).quote_id
      writeFileSync(join(directory, "sizes.json"), JSON.stringify({ offer: Buffer.byteLength(offer), quote: Buffer.byteLength(quote) }))
      rows = [
        await measure("POST /insurance/car/offers", { url: `${kasko.url}/insurance/car/offers`, method: "POST", headers, body: offerBody }),
        await measure("POST /insurance/car/quotes (SQLite FULL)", { url: `${kasko.url}/insurance/car/quotes`, method: "POST", headers, body: quoteBody }),
        await measure("GET /insurance/car/quotes/{id}", { url: `${kasko.url}/insurance/car/quotes/${quoteId}`, method: "GET", headers })
      ]
    } finally {
      await stopServer(kasko)
    }
    const baseline = await startServer("baseline", join(directory, "sizes.json"))
    let baselines
    try {
      baselines = [
        await measure("bare Express 5: POST, fixed offer-sized body", { url: `${baseline.url}/offers`, method: "POST", headers, body: offerBody }),
        await measure("bare Express 5: POST, fixed quote-sized body", { url: `${baseline.url}/quotes`, method: "POST", headers, body: quoteBody }),
        await measure("bare Express 5: GET, fixed quote-sized body", { url: `${baseline.url}/quotes/x`, method: "GET", headers })
      ]
    } finally {
      await stopServer(baseline)
    }
    return rows.flatMap((row, index) => {
      const base = baselines[index]
      return [
        { ...base, vs_baseline: 1, p99_vs_baseline: 1 },
        { ...row, vs_baseline: row.requests_per_second / base.requests_per_second, p99_vs_baseline: row.p99_ms / base.p99_ms }
      ]
    })
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}
