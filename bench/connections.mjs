// Connections section (issue 43, item 2): slow connections from many addresses against the service's connection
// limits as shipped (KASKO_MAX_CONNECTIONS 4096, KASKO_MAX_CONNECTIONS_PER_ADDRESS 128, KASKO_HEADERS_TIMEOUT_MS
// 10 s). The attack: 40 addresses × 130 connections (5 200; each address 2 over its limit, together 1 104 over the
// maximum), each sending a request line and then one header line every 2 s, never finishing its headers, and
// opened again whenever the service closes it. Meanwhile a normal client on 127.0.0.1 asks for offers one after
// another, each on a connection of its own: the share it got answered, against the same client with no attack.
//
// The attacker runs in a process of its own (`node bench/connections.mjs attack <url> <maximum>`), so its
// reconnecting does not share the normal client's event loop.
//   node bench/connections.mjs        runs the section alone
import { Examples } from "@kasko/core"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { request } from "node:http"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { benchPartner, startServer, stopServer } from "./http.mjs"

const SECONDS = Number(process.env.KASKO_BENCH_CONNECTIONS_SECONDS ?? 20)
const ADDRESSES = 40
const CONNECTIONS_PER_ADDRESS = 130
const MAX_CONNECTIONS = 4_096
const HEADER_LINE_EVERY_MILLIS = 2_000
// a normal client gives up on an offer after this long
const OFFER_TIMEOUT_MILLIS = 10_000
const NORMAL_CLIENT = "127.0.0.1"

const attackAddress = (index) => `127.0.3.${index + 1}`

/**
 * The attacker's process: opens the connections, reopens each one the service closes, writes a header line to
 * every open one every 2 s. Prints `{"ready": true}` once the service has closed as many of the first connections
 * as the attack opens beyond `maximum` (reopened ones aside, which the per-address limit closes at once); on
 * "stop" (standard input) prints what it did and exits.
 */
const runAttacker = (url, maximum) => {
  const { hostname, port } = new URL(url)
  const open = new Set()
  let opened = 0
  let closedByService = 0
  let firstClosed = 0
  let stopping = false
  let ready = false
  const keepOpen = (localAddress, first) => {
    if (stopping) return
    const socket = connect({ host: hostname, port: Number(port), localAddress })
    opened++
    open.add(socket)
    socket.on("error", () => undefined)
    socket.once("connect", () => socket.write("GET /insurance/car/products HTTP/1.1\r\nHost: localhost\r\n"))
    socket.once("close", () => {
      open.delete(socket)
      if (stopping) return
      closedByService++
      if (first) firstClosed++
      if (!ready && firstClosed >= ADDRESSES * CONNECTIONS_PER_ADDRESS - maximum) {
        ready = true
        process.stdout.write(`${JSON.stringify({ ready })}\n`)
      }
      keepOpen(localAddress, false)
    })
  }
  for (let address = 0; address < ADDRESSES; address++)
    for (let connection = 0; connection < CONNECTIONS_PER_ADDRESS; connection++) keepOpen(attackAddress(address), true)
  let line = 0
  const dribble = setInterval(() => {
    line++
    for (const socket of open) if (socket.writable) socket.write(`X-Slow-${line}: ${line}\r\n`)
  }, HEADER_LINE_EVERY_MILLIS)
  createInterface({ input: process.stdin }).once("line", () => {
    stopping = true
    clearInterval(dribble)
    const openAtEnd = open.size
    for (const socket of open) socket.destroy()
    process.stdout.write(`${JSON.stringify({ opened, closedByService, openAtEnd })}\n`)
    process.exit(0)
  })
}

/** One offer on a connection of its own from the normal client's address: its status (0: closed or no answer) and ms. */
const offerOnNewConnection = (url, headers) =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url)
    const started = process.hrtime.bigint()
    const done = (status) => resolve({ status, ms: Number(process.hrtime.bigint() - started) / 1e6 })
    const outgoing = request(
      {
        host: hostname,
        port,
        method: "POST",
        path: "/insurance/car/offers",
        headers: { ...headers, connection: "close" },
        agent: false,
        localAddress: NORMAL_CLIENT,
        timeout: OFFER_TIMEOUT_MILLIS
      },
      (incoming) => {
        incoming.resume()
        incoming.on("end", () => done(incoming.statusCode ?? 0))
        incoming.on("error", () => done(0))
      }
    )
    outgoing.on("timeout", () => outgoing.destroy(new Error("no answer in time")))
    outgoing.on("error", () => done(0))
    outgoing.end(JSON.stringify(Examples.offerRequest()))
  })

/** Offers one after another for the section's seconds: how many were sent and answered, and how fast. */
const normalClient = async (url, headers) => {
  const answers = []
  const until = Date.now() + SECONDS * 1000
  while (Date.now() < until) answers.push(await offerOnNewConnection(url, headers))
  const answered = answers.filter((answer) => answer.status === 200)
  const times = answered.map((answer) => answer.ms).sort((a, b) => a - b)
  const percentile = (fraction) => times[Math.min(times.length - 1, Math.ceil(fraction * times.length) - 1)] ?? null
  return {
    offers_sent: answers.length,
    offers_answered: answered.length,
    answered_share: answered.length / answers.length,
    answered_p50_ms: percentile(0.5),
    answered_p99_ms: percentile(0.99)
  }
}

const startAttacker = (url) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [import.meta.filename, "attack", url, String(MAX_CONNECTIONS)], {
      stdio: ["pipe", "pipe", "inherit"]
    })
    child.on("error", reject)
    const lines = createInterface({ input: child.stdout })
    lines.once("line", () =>
      resolve({
        stop: () =>
          new Promise((stopped) => {
            lines.once("line", (line) => stopped(JSON.parse(line)))
            child.stdin.write("stop\n")
          })
      })
    )
  })

export const runConnectionsBench = async () => {
  const directory = mkdtempSync(join(tmpdir(), "kasko-connections-bench-"))
  const server = await startServer("kasko", directory)
  try {
    const headers = await benchPartner(directory, "offers:create")
    const alone = await normalClient(server.url, headers)
    const attacker = await startAttacker(server.url)
    const attacked = await normalClient(server.url, headers)
    const attack = await attacker.stop()
    return [
      { attack: "none", ...alone },
      {
        attack: `${ADDRESSES} addresses × ${CONNECTIONS_PER_ADDRESS} slow connections, reconnecting`,
        ...attacked,
        attack_connections: ADDRESSES * CONNECTIONS_PER_ADDRESS,
        attack_opened: attack.opened,
        attack_closed_by_service: attack.closedByService,
        attack_open_at_end: attack.openAtEnd
      }
    ]
  } finally {
    await stopServer(server)
    rmSync(directory, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === "attack") runAttacker(process.argv[3], Number(process.argv[4]))
  else console.table(await runConnectionsBench())
}
