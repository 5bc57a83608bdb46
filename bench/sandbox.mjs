// Sandbox section (issue 47): a partner's test suite run in a loop with a sandbox key — create a quote, read it,
// activate it, price an offer, again — must leave production partners' latency and quotes untouched. The flood
// comes from 127.0.0.2 (its own address, so it is not counted with production's connections) in a process of its
// own, 16 loops at once,
// bounded by the round's time and FLOOD_MAX requests; production's partner creates quotes from 127.0.0.1 on
// 2 connections (autocannon). Rounds without and with the flood are interleaved (KASKO_BENCH_ROUNDS, default 3;
// KASKO_BENCH_SECONDS each, default 5), medians; the figure is production's p99 with the flood over without.
// Afterwards the store is read: every production quote is production's own, none is numbered TEST-, and the
// sandbox's quotes are all under its owner. A third side, interleaved too, aims the same flood at a bare node:http
// server of its own answering 429 at once: on a machine of 2 cores the flood's client and production's load
// generator take cores from kasko whoever answers the flood, so production's p99 during the flood at kasko over
// its p99 during that flood elsewhere is what kasko itself lets the sandbox cost production.
import { Examples } from "@kasko/core"
import Database from "better-sqlite3"
import { mkdtempSync, rmSync } from "node:fs"
import { spawn } from "node:child_process"
import { Agent, createServer, request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { benchPartner, kaskoAdmin, load, median, startServer, stopServer } from "./http.mjs"

const ROUNDS = Number(process.env.KASKO_BENCH_ROUNDS ?? 3)
const SECONDS = Number(process.env.KASKO_BENCH_SECONDS ?? 5)
const FLOOD_LOOPS = Number(process.env.KASKO_BENCH_FLOOD_LOOPS ?? 16)
const FLOOD_MAX = 200_000
const FLOOD_ADDRESS = "127.0.0.2"

/** The sandbox of a second partner, whose developers run their test suite: the headers its requests carry. */
const sandboxPartner = async (directory) => {
  await kaskoAdmin(directory, "partners", "add", "--id", "suite-partner", "--name", "Suite Partner A/S")
  const { subscription_key } = JSON.parse(
    await kaskoAdmin(directory, "keys", "add", "--partner", "suite-partner", "--sandbox", "--json")
  )
  const scopes = "products:read offers:create quotes:create quotes:read quotes:activate"
  const token = (
    await kaskoAdmin(directory, "tokens", "issue", "--partner", "suite-partner", "--scopes", scopes, "--ttl", "1h")
  ).trim()
  return {
    "content-type": "application/json",
    authorization: `Bearer ${token}`,
    "ocp-apim-subscription-key": subscription_key
  }
}

/** One request from the flood's address: its status and JSON body (or undefined). */
const send = (url, agent, method, path, headers, body) =>
  new Promise((resolve) => {
    const target = new URL(path, url)
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method,
        headers,
        agent,
        localAddress: FLOOD_ADDRESS
      },
      (response) => {
        const chunks = []
        response.on("data", (chunk) => chunks.push(chunk))
        response.on("end", () => {
          let parsed
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"))
          } catch {
            parsed = undefined
          }
          resolve({ status: response.statusCode, body: parsed })
        })
      }
    )
    outgoing.on("error", () => resolve({ status: 0, body: undefined }))
    outgoing.end(body)
  })

/** The test suite in FLOOD_LOOPS loops until `seconds` pass or FLOOD_MAX requests are sent: counts by status. */
const flood = async (url, headers, seconds) => {
  const agent = new Agent({ keepAlive: true, maxSockets: FLOOD_LOOPS })
  const ends = performance.now() + seconds * 1000
  const statuses = {}
  let sent = 0
  const quoteBody = JSON.stringify(Examples.quoteRequest())
  const offerBody = JSON.stringify(Examples.offerRequest())
  const counted = (answer) => {
    sent += 1
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
    return answer
  }
  const going = () => sent < FLOOD_MAX && performance.now() < ends
  const loop = async () => {
    while (going()) {
      const created = counted(await send(url, agent, "POST", "/insurance/car/quotes", headers, quoteBody))
      const quoteId = created.body?.quote_id
      if (quoteId !== undefined && going()) {
        counted(await send(url, agent, "GET", `/insurance/car/quotes/${quoteId}`, headers))
        if (going()) counted(await send(url, agent, "POST", `/insurance/car/quotes/${quoteId}/activation`, headers))
      }
      if (going()) counted(await send(url, agent, "POST", "/insurance/car/offers", headers, offerBody))
    }
  }
  await Promise.all(Array.from({ length: FLOOD_LOOPS }, loop))
  agent.destroy()
  return { sent, statuses }
}

/** The flood in a process of its own, so that its client's work does not delay production's load generator. */
const floodProcess = (url, headers, seconds) =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [import.meta.filename, "flood", url, JSON.stringify(headers), String(seconds)],
      {
        stdio: ["ignore", "pipe", "inherit"]
      }
    )
    const chunks = []
    child.stdout.on("data", (chunk) => chunks.push(chunk))
    child.on("error", reject)
    child.on("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))
        : reject(new Error(`flood exited ${code}`))
    )
  })

/** A bare node:http server in a process of its own answering every request 429 at once: where the control flood goes. */
const startBareRefuser = () =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [import.meta.filename, "refuser"], { stdio: ["ignore", "pipe", "inherit"] })
    child.on("error", reject)
    child.once("exit", (code) => reject(new Error(`the bare refuser exited (${code}) before it served`)))
    child.stdout.once("data", (chunk) => resolve({ child, url: `http://127.0.0.1:${Number(String(chunk).trim())}` }))
  })

/** Production's partner creating quotes on 2 connections for `seconds`: its latency, and how many it created. */
const production = async (url, headers, quoteBody) => {
  const result = await load(
    { url: `${url}/insurance/car/quotes`, method: "POST", headers, body: quoteBody, connections: 2 },
    SECONDS
  )
  const failures = result.non2xx + result.errors + result.timeouts
  if (failures > 0)
    throw new Error(`production: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`)
  return {
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests_per_second: result.requests.average,
    quotes: result.requests.total
  }
}

export const runSandboxBench = async () => {
  const directory = mkdtempSync(join(tmpdir(), "kasko-sandbox-bench-"))
  try {
    const productionHeaders = await benchPartner(directory)
    const sandboxHeaders = await sandboxPartner(directory)
    const quoteBody = JSON.stringify(Examples.quoteRequest())
    const server = await startServer("kasko", directory)
    let refuser
    const without = []
    const withFlood = []
    const withFloodElsewhere = []
    const floods = []
    let productionQuotes = 0
    try {
      refuser = await startBareRefuser()
      // warm-up: both kinds of request once through every path
      productionQuotes += (await production(server.url, productionHeaders, quoteBody)).quotes
      await floodProcess(server.url, sandboxHeaders, 1)
      for (let round = 0; round < ROUNDS; round++) {
        // the order rotated every round, so that no side always runs first, second or last
        const sides = [
          ["without", "with", "elsewhere"],
          ["with", "elsewhere", "without"],
          ["elsewhere", "without", "with"]
        ][round % 3]
        for (const side of sides) {
          if (side === "elsewhere") {
            const [measured] = await Promise.all([
              production(server.url, productionHeaders, quoteBody),
              floodProcess(refuser.url, sandboxHeaders, SECONDS)
            ])
            productionQuotes += measured.quotes
            withFloodElsewhere.push(measured)
          } else if (side === "without") {
            const measured = await production(server.url, productionHeaders, quoteBody)
            productionQuotes += measured.quotes
            without.push(measured)
          } else {
            const [measured, flooded] = await Promise.all([
              production(server.url, productionHeaders, quoteBody),
              floodProcess(server.url, sandboxHeaders, SECONDS)
            ])
            productionQuotes += measured.quotes
            withFlood.push(measured)
            floods.push(flooded)
          }
        }
      }
    } finally {
      await stopServer(server)
      refuser?.child.kill("SIGTERM")
    }
    const database = new Database(join(directory, "kasko.db"), { readonly: true })
    const stored = Object.fromEntries(
      database
        .prepare(
          "SELECT partner_id, count(*) AS quotes, sum(quote_number LIKE 'TEST-%') AS numbered_test FROM quotes GROUP BY partner_id"
        )
        .all()
        .map((row) => [row.partner_id, { quotes: row.quotes, numbered_test: row.numbered_test }])
    )
    database.close()
    const p99Without = median(without.map((run) => run.p99_ms))
    const p99With = median(withFlood.map((run) => run.p99_ms))
    const p99Elsewhere = median(withFloodElsewhere.map((run) => run.p99_ms))
    const flooded = {
      sent: median(floods.map((run) => run.sent)),
      answered_200: median(floods.map((run) => run.statuses[200] ?? 0)),
      answered_429: median(floods.map((run) => run.statuses[429] ?? 0)),
      statuses_of_last_round: floods.at(-1)?.statuses
    }
    return {
      rounds: ROUNDS,
      seconds: SECONDS,
      rows: [
        {
          side: "production, alone",
          p50_ms: median(without.map((run) => run.p50_ms)),
          p99_ms: p99Without,
          requests_per_second: median(without.map((run) => run.requests_per_second))
        },
        {
          side: "production, during the sandbox flood",
          p50_ms: median(withFlood.map((run) => run.p50_ms)),
          p99_ms: p99With,
          requests_per_second: median(withFlood.map((run) => run.requests_per_second)),
          p99_vs_alone: Number((p99With / p99Without).toFixed(2)),
          p99_vs_flood_elsewhere: Number((p99With / p99Elsewhere).toFixed(2))
        },
        {
          side: "production, during the same flood at a bare server",
          p50_ms: median(withFloodElsewhere.map((run) => run.p50_ms)),
          p99_ms: p99Elsewhere,
          requests_per_second: median(withFloodElsewhere.map((run) => run.requests_per_second)),
          p99_vs_alone: Number((p99Elsewhere / p99Without).toFixed(2))
        }
      ],
      flood: flooded,
      quotes: {
        // the warm-up's and every round's production quotes as answered (a request cut off as a load ends may
        // still be stored): every one the partner's own, none numbered TEST-
        production_created: productionQuotes,
        stored
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === "refuser") {
  const server = createServer((incoming, outgoing) => {
    incoming.resume()
    incoming.on("end", () =>
      outgoing.writeHead(429, { "content-type": "application/problem+json" }).end('{"status":429}')
    )
  })
  server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`))
  process.on("SIGTERM", () => server.close(() => process.exit(0)))
} else if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === "flood") {
  const [url, headers, seconds] = process.argv.slice(3)
  process.stdout.write(JSON.stringify(await flood(url, JSON.parse(headers), Number(seconds))))
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runSandboxBench()
  console.log(JSON.stringify(result, null, 2))
}
