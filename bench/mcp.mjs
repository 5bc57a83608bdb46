// MCP section (issue 46, must-show 4): what an agent's price_offer over the MCP endpoint costs against the REST
// offer it answers the same — the same service, the same partner's token and key, the same case — and, to tell
// the protocol's share from the tool's, an MCP ping (admitted, parsed, answered by a fresh SDK server and
// transport, no tool). The three sides are interleaved in rounds; each figure is the median of its rounds.
import { Examples } from "@kasko/core"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { benchPartner, measure, medianOf, startServer, stopServer } from "./http.mjs"

const ROUNDS = Number(process.env.KASKO_BENCH_ROUNDS ?? 3)

/** A JSON-RPC request to the stateless endpoint: no session, so no initialize before it (as the SDK's client may). */
const rpc = (method, params) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method, ...(params === undefined ? {} : { params }) })

export const runMcpBench = async () => {
  const directory = mkdtempSync(join(tmpdir(), "kasko-mcp-bench-"))
  const server = await startServer("kasko", directory)
  try {
    const headers = await benchPartner(directory, "offers:create")
    const mcpHeaders = {
      ...headers,
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25"
    }
    const offer = Examples.offerRequest(
      Examples.standardParameters({ vehicle_price: "350000", youngest_user_age: "23" })
    )
    const sides = {
      rest: { url: `${server.url}/insurance/car/offers`, method: "POST", headers, body: JSON.stringify(offer) },
      mcp: {
        url: `${server.url}/mcp`,
        method: "POST",
        headers: mcpHeaders,
        body: rpc("tools/call", { name: "price_offer", arguments: offer })
      },
      ping: { url: `${server.url}/mcp`, method: "POST", headers: mcpHeaders, body: rpc("ping") }
    }
    // before any load: the tool answers the offer REST answers
    const rest = await (await fetch(sides.rest.url, sides.rest)).json()
    const mcp = await (await fetch(sides.mcp.url, sides.mcp)).json()
    if (JSON.stringify(mcp.result?.structuredContent) !== JSON.stringify(rest))
      throw new Error(`price_offer over MCP does not answer the REST offer: ${JSON.stringify(mcp).slice(0, 300)}`)

    for (const options of Object.values(sides)) await measure("warm-up", { ...options, duration: 1 })
    const runs = { rest: [], mcp: [], ping: [] }
    for (let round = 0; round < ROUNDS; round++)
      for (const [side, options] of Object.entries(sides))
        runs[side].push(await measure(`MCP bench ${side}`, options, server.child.pid))
    const medians = Object.fromEntries(Object.entries(runs).map(([side, sideRuns]) => [side, medianOf(sideRuns)]))
    const row = (side, name) => ({
      request: name,
      ...medians[side],
      vs_rest: medians[side].requests_per_second / medians.rest.requests_per_second,
      p99_vs_rest: medians[side].p99_ms / medians.rest.p99_ms,
      rounds_requests_per_second: runs[side].map((run) => Math.round(run.requests_per_second)).join(" / ")
    })
    return [
      row("rest", "POST /insurance/car/offers"),
      row("mcp", "POST /mcp tools/call price_offer"),
      row("ping", "POST /mcp ping")
    ]
  } finally {
    await stopServer(server)
    rmSync(directory, { recursive: true, force: true })
  }
}

// `node bench/mcp.mjs` runs this section alone
if (import.meta.url === `file://${process.argv[1]}`) console.table(await runMcpBench())
