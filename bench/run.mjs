// `pnpm bench`: every section measured in one run on this machine, printed as tables and
// written to results/<timestamp>.json so runs can be compared.
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus } from "node:os"
import { join } from "node:path"
import { runConnectionsBench } from "./connections.mjs"
import { runCoreBench } from "./core.mjs"
import { runDecoderBench } from "./decoder.mjs"
import { runDocumentBurstBench, runDocumentFloodBench, runDocumentsBench } from "./documents.mjs"
import { runFairnessBench } from "./fairness.mjs"
import { runHttpBench } from "./http.mjs"
import { runImpactBench } from "./impact.mjs"
import { runMcpBench } from "./mcp.mjs"
import { runMemoryBench } from "./memory.mjs"
import { runObservabilityBench } from "./observability.mjs"
import { runSandboxBench } from "./sandbox.mjs"
import { runServiceStartupBench, runStartupBench } from "./startup.mjs"
import { runStorageBench } from "./storage.mjs"
import { runDeliveryLatencyBench, runHangingEndpointsBench, runWebhooksBench } from "./webhooks.mjs"
import { runImpactPageBench, runWorkbenchBench } from "./workbench.mjs"

const format = (value) =>
  typeof value === "number"
    ? Math.abs(value) >= 100
      ? Math.round(value).toLocaleString("en")
      : value.toFixed(3)
    : value

const printTable = (title, rows) => {
  console.log(`\n${title}`)
  console.table(rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, format(value)]))))
}

const started = Date.now()
const machine = { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "unknown" }
console.log(`kasko benchmarks — Node ${machine.node}, ${machine.cpus} × ${machine.cpu}`)

const core = await runCoreBench()
printTable(
  "1. Core: offers priced through the public API, 512 different requests (ratios: against the hand-written limit and json-rules-engine)",
  core
)

const http = await runHttpBench()
printTable(
  "2. HTTP on loopback, autocannon, 32 connections, medians of rounds interleaving kasko, the hand-written rival (the same requests and answers), bare Express 5 and bare node:http (fixed bodies of the same size); RSS in MB: idle after start, and the largest under the load",
  http
)

const memory = runMemoryBench()
printTable("3. Memory: 100 000 offers then 100 000 quotes (SQLite), twice", [
  { round: "first", ...memory.first_round },
  { round: "second", ...memory.second_round }
])
console.log(`heap growth between rounds: ${memory.heap_growth_between_rounds_percent} %`)

const storage = await runStorageBench()
printTable("4. Storage through the QuoteStore port (ratios: against the in-memory store)", storage)

const startup = runStartupBench()
printTable(
  "5. Start-up of the kasko command: wall time to exit, medians of 5 rounds interleaving the bundled command and the same modules unbundled",
  startup
)
const serviceStartup = await runServiceStartupBench()
printTable(
  "5. Start-up of the service: spawn to the first /health answer, on a built checkout, medians of 5 interleaved rounds (budget: pnpm start ≤ 3 s)",
  serviceStartup
)

const workbench = await runWorkbenchBench()
if (Array.isArray(workbench))
  printTable(
    "6. The workbench page in Chromium, from its own User Timing entries (medians; ratios: against the targets)",
    workbench
  )
else console.log(`\n6. The workbench page: not measured, ${workbench.skipped}`)
const impactPage = await runImpactPageBench()
if (Array.isArray(impactPage))
  printTable(
    "6. The workbench's impact page in Chromium: a generated book re-rated in its web workers, against kasko tariff impact with as many worker threads (medians of interleaved rounds)",
    impactPage
  )
else console.log(`\n6. The impact page: not measured, ${impactPage.skipped}`)

const webhooks = await runWebhooksBench()
printTable(
  "7. Webhooks: quote creation with every event delivered to an endpoint, against no subscription (medians of interleaved rounds)",
  webhooks
)

const hanging = await runHangingEndpointsBench()
printTable(
  "7. Webhooks with hanging endpoints: deliveries a second to a partner's 5 healthy endpoints after 1 000 quotes, with 5 more of its endpoints never answering (medians of interleaved rounds)",
  hanging
)

const latency = await runDeliveryLatencyBench()
printTable(
  "7. Webhook delivery latency: 200 quotes at 50 a second, each event from its commit to the endpoint's 2xx (after 20 quotes' warm-up; budget: median ≤ 200 ms)",
  latency
)

const observability = await runObservabilityBench()
printTable(
  "8. Observability, the core: createOffer with the kasko.pricing span, against no span (medians)",
  observability.core
)
printTable(
  "8. Observability over HTTP: offers with metrics on and with traces exported, against neither (medians of interleaved rounds)",
  observability.http
)

const decoders = runDecoderBench()
printTable(
  "9. Decoding a valid request with its Schema (the request path's Decoding.decodeAll), Effect 4's parser interpreted and JIT-compiled (µs per decode, medians of interleaved rounds)",
  decoders
)

const documents = await runDocumentsBench()
printTable(
  "10. Documents: a quote's document printed as PDF, each timed alone (budget: p99 ≤ 50 ms); the IPID rendered once per tariff version, then kept (the 4 product × variants asked for in turn)",
  documents
)

const documentsFlood = await runDocumentFloodBench()
printTable(
  "10. Documents under a flood: offers at 500/s over HTTP, alone and while one partner asks for 100 quote documents/s (ms; p99 against offers alone)",
  documentsFlood
)

const documentsBurst = await runDocumentBurstBench()
printTable(
  "10. Documents under a burst: 60 at once from one partner (or two), then 10 from another 30 ms later — what the other got (issue 43)",
  documentsBurst
)

const impact = await runImpactBench()
printTable(
  `11. Rate impact: ${impact.rows[0].cases.toLocaleString("en")} generated policies through kasko tariff impact under two versions, 1 and 2 worker threads, medians of ${impact.rounds} interleaved rounds (targets: ≤ ${impact.targets.seconds} s, ≤ ${impact.targets.rss_mb} MB, speed-up ≥ ${impact.targets.speed_up})`,
  impact.rows
)
console.log(
  `load average (1 min) before ${impact.load_average_1min.before}, after ${impact.load_average_1min.after}; targets met: ${JSON.stringify(impact.met)}`
)

const connections = await runConnectionsBench()
printTable(
  "12. Connections: a normal client's offers, each on a new connection, for 20 s (KASKO_BENCH_CONNECTIONS_SECONDS) alone and while 40 addresses hold 130 slow connections each (a header line every 2 s, reopened whenever closed) against the shipped limits (4 096 in all, 128 an address) — issue 43",
  connections
)

const fairness = await runFairnessBench()
printTable(
  "13. Fairness: /health while 8 scrapers loop (budgets p50 ≤ 10 ms, p99 ≤ 50 ms) and another partner's GET while one partner's 100 000 deliveries fail (budget p99 ≤ 50 ms), each against the same requests alone",
  fairness
)

const mcp = await runMcpBench()
printTable(
  "14. MCP: an agent's price_offer over POST /mcp against the REST offer it answers the same (and an MCP ping: the protocol's share), the same partner and case, autocannon, 32 connections, medians of interleaved rounds",
  mcp
)

const sandbox = await runSandboxBench()
printTable(
  `15. Sandbox: production's partner creating quotes on 2 connections, alone, while another partner's sandbox test suite loops from 127.0.0.2 (16 loops; sandbox rate limit 600/min), and while that flood goes to a bare server instead (the control), medians of ${sandbox.rounds} interleaved rounds of ${sandbox.seconds} s`,
  sandbox.rows
)
console.log(`the flood: ${JSON.stringify(sandbox.flood)}; the quotes stored: ${JSON.stringify(sandbox.quotes)}`)

const results = {
  measured_at: new Date().toISOString(),
  seconds: Math.round((Date.now() - started) / 1000),
  machine,
  core,
  http,
  memory,
  storage,
  startup,
  service_startup: serviceStartup,
  workbench,
  impact_page: impactPage,
  webhooks,
  webhooks_hanging_endpoints: hanging,
  webhooks_delivery_latency: latency,
  observability,
  decoders,
  documents,
  documents_flood: documentsFlood,
  documents_burst: documentsBurst,
  impact,
  connections,
  fairness,
  mcp,
  sandbox
}
const directory = join(import.meta.dirname, "results")
mkdirSync(directory, { recursive: true })
const file = join(directory, `${results.measured_at.replace(/[:.]/g, "-")}.json`)
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`)
console.log(`\n${results.seconds} s; written to ${file}`)
