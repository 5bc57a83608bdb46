// `node bench/profile.mjs [label]`: where a request's microseconds go. For each endpoint, the
// service runs in its own process under V8's CPU profiler while autocannon loads it; every
// sample is attributed to a part of the request path (framework, middleware, authentication,
// decoding, pricing, store, logging, GC, …) and the table shows microseconds per request.
// Writes results/profile-<label>.json and prints a Markdown table for bench/README.md.
import { Examples } from "@kasko/core"
import { runCli } from "@kasko/server"
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"

const label = process.argv[2] ?? "now"
const DURATION_SECONDS = 6
const CONNECTIONS = 32

// node_modules packages by the part of a request they serve
const PACKAGES = {
  framework: [
    "express",
    "router",
    "finalhandler",
    "on-finished",
    "statuses",
    "depd",
    "http-errors",
    "content-type",
    "mime-types",
    "mime-db",
    "type-is",
    "media-typer",
    "encodeurl",
    "escape-html",
    "parseurl",
    "path-to-regexp",
    "vary",
    "accepts",
    "negotiator",
    "etag",
    "fresh",
    "range-parser",
    "proxy-addr",
    "forwarded",
    "ipaddr.js",
    "qs",
    "send",
    "serve-static",
    "setprototypeof",
    "inherits",
    "ee-first",
    "content-disposition",
    "cookie",
    "cookie-signature",
    "once",
    "wrappy",
    "merge-descriptors",
    "toidentifier",
    "debug",
    "ms",
    "safe-buffer",
    "safer-buffer",
    "side-channel"
  ],
  "body reading": ["body-parser", "raw-body", "iconv-lite", "bytes", "unpipe"],
  "security headers": ["helmet"],
  "rate limit": ["express-rate-limit", "rate-limiter-flexible"],
  cors: ["cors", "object-assign"],
  log: [
    "pino",
    "sonic-boom",
    "thread-stream",
    "fast-redact",
    "quick-format-unescaped",
    "atomic-sleep",
    "on-exit-leak-free",
    "real-require",
    "safe-stable-stringify",
    "pino-std-serializers",
    "fast-safe-stringify"
  ],
  authentication: ["jose"],
  effect: ["effect"],
  store: [
    "better-sqlite3",
    "pg",
    "pg-pool",
    "pg-protocol",
    "pg-types",
    "pgpass",
    "postgres-array",
    "postgres-bytea",
    "postgres-date",
    "postgres-interval"
  ]
}
const PACKAGE_CATEGORY = new Map(
  Object.entries(PACKAGES).flatMap(([category, names]) => names.map((name) => [name, category]))
)

// kasko's own modules by the part of a request they serve; unlisted modules count as "kasko, other"
const MODULES = {
  decoding: [
    "Decoding",
    "FieldPath",
    "Fields",
    "Parameters",
    "Parties",
    "QuoteRequest",
    "Offer",
    "ProductSelection",
    "RequestText",
    "CalendarDate",
    "IdentityNumbers",
    "RequestBody"
  ],
  pricing: ["Pricing", "RatingWorksheet", "TariffCompiler", "Money", "Tariff", "Coverage", "TariffBook", "PricingPlan"],
  operation: [
    "QuotingService",
    "Quote",
    "QuoteLifecycle",
    "IdGenerator",
    "Operations",
    "VehicleCodes",
    "ProductCatalogue",
    "Readiness"
  ],
  authentication: [
    "Authentication",
    "BearerAuthentication",
    "Credentials",
    "Tokens",
    "SubscriptionKeys",
    "PartnerAdministration",
    "SqlitePartnerStore",
    "TokenVerifier",
    "SubscriptionKeyLookup",
    "SigningKey"
  ],
  store: [
    "SqliteQuoteStore",
    "SqliteStores",
    "SqliteErrors",
    "StoredRows",
    "PostgresStores",
    "SqliteConnection",
    "Transaction"
  ],
  log: ["RequestLog", "RequestId"],
  "rate limit": [
    "Protection",
    "RateLimit",
    "MemoryRateLimiter",
    "RateLimiter",
    "RateLimiterMemory",
    "MemoryStorage",
    "RateLimiterAbstract",
    "RateLimiterRes"
  ],
  "request program": ["RequestProgram", "Admission"],
  "answer writing": ["App", "ProblemHandlers", "Problem", "CoreErrorProblems", "Answers", "RequestHandler"]
}
const MODULE_CATEGORY = new Map(
  Object.entries(MODULES).flatMap(([category, names]) => names.map((name) => [name, category]))
)

/** The part of the request path a stack frame belongs to, or undefined for a native or anonymous frame. */
const categoryOf = (frame) => {
  const { url, functionName } = frame.callFrame
  if (functionName === "(garbage collector)") return "GC"
  if (functionName === "(idle)") return "idle"
  if (functionName === "(program)") return "V8 and native"
  if (url === "") return undefined
  if (url.startsWith("node:")) {
    if (/node:_http|node:internal\/http|node:http/.test(url)) return "Node http"
    if (/node:net|node:internal\/(net|stream|streams)|node:stream|node:internal\/stream_base/.test(url))
      return "Node net and streams"
    if (/zlib/.test(url)) return "body reading"
    return "Node, other"
  }
  const packageMatch = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(url)
  if (packageMatch !== null && !packageMatch[1].startsWith("@kasko/"))
    return PACKAGE_CATEGORY.get(packageMatch[1]) ?? `package ${packageMatch[1]}`
  const moduleMatch = /\/(?:packages|adapters)\/[^/]+\/(?:dist\/)?src\/(?:[^/]+\/)*([A-Za-z]+)\.(?:js|ts)$/.exec(url)
  if (moduleMatch !== null) return MODULE_CATEGORY.get(moduleMatch[1]) ?? "kasko, other"
  return "other"
}

/** Microseconds per category: each sample goes to its innermost frame with a category (native frames take their caller's). */
const attribute = (profile) => {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const parents = new Map()
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)
  const categoryCache = new Map()
  const categoryOfNode = (id) => {
    if (categoryCache.has(id)) return categoryCache.get(id)
    let current = id
    let category
    while (current !== undefined && category === undefined) {
      category = categoryOf(nodes.get(current))
      current = parents.get(current)
    }
    const found = category ?? "V8 and native"
    categoryCache.set(id, found)
    return found
  }
  const micros = {}
  const functions = {}
  profile.samples.forEach((id, index) => {
    const category = categoryOfNode(id)
    const delta = profile.timeDeltas[index + 1] ?? 0
    micros[category] = (micros[category] ?? 0) + delta
    const frame = nodes.get(id).callFrame
    const name = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber + 1} [${category}]`
    functions[name] = (functions[name] ?? 0) + delta
  })
  return { micros, functions }
}

const startProfiledServer = (directory, profileFile) =>
  new Promise((resolve, reject) => {
    // KASKO_BENCH_NODE_FLAGS passes V8 flags to the server, e.g. --no-turbo-inlining for exact attribution
    const flags = (process.env.KASKO_BENCH_NODE_FLAGS ?? "").split(" ").filter((flag) => flag !== "")
    const child = spawn(
      process.execPath,
      [...flags, join(import.meta.dirname, "http-server.mjs"), "kasko", directory],
      {
        stdio: ["pipe", "pipe", "inherit"],
        env: { ...process.env, KASKO_BENCH_PROFILE: profileFile }
      }
    )
    child.on("error", reject)
    const lines = createInterface({ input: child.stdout })
    const waiting = []
    lines.on("line", (line) => waiting.shift()?.(JSON.parse(line)))
    const next = () => new Promise((resolveLine) => waiting.push(resolveLine))
    next().then(({ port }) =>
      resolve({
        child,
        url: `http://127.0.0.1:${port}`,
        command: async (word) => {
          child.stdin.write(`${word}\n`)
          return next()
        }
      })
    )
  })

const load = (options) =>
  new Promise((resolve, reject) =>
    autocannon({ connections: CONNECTIONS, duration: DURATION_SECONDS, ...options }, (error, result) =>
      error ? reject(error) : resolve(result)
    )
  )

const kaskoAdmin = async (dataDirectory, ...args) => {
  process.env.KASKO_DATA_DIR = dataDirectory
  const result = await runCli(args)
  if (result.exitCode !== 0) throw new Error(result.stderr)
  return result.stdout
}

const directory = mkdtempSync(join(tmpdir(), "kasko-profile-"))
const results = {}
try {
  const { subscription_key } = JSON.parse(
    await kaskoAdmin(directory, "partners", "add", "--id", "bench-partner", "--name", "Bench Partner A/S", "--json")
  )
  const token = (
    await kaskoAdmin(
      directory,
      "tokens",
      "issue",
      "--partner",
      "bench-partner",
      "--scopes",
      "offers:create quotes:create quotes:read",
      "--ttl",
      "1h"
    )
  ).trim()
  const headers = {
    "content-type": "application/json",
    authorization: `Bearer ${token}`,
    "ocp-apim-subscription-key": subscription_key
  }
  const offerBody = JSON.stringify(
    Examples.offerRequest(Examples.standardParameters({ vehicle_price: "350000", youngest_user_age: "23" }))
  )
  const quoteBody = JSON.stringify(Examples.quoteRequest())
  const profileFile = join(directory, "profile.cpuprofile")
  const server = await startProfiledServer(directory, profileFile)
  try {
    const quote = await (
      await fetch(`${server.url}/insurance/car/quotes`, { method: "POST", headers, body: quoteBody })
    ).json()
    const endpoints = [
      [
        "POST /insurance/car/offers",
        { url: `${server.url}/insurance/car/offers`, method: "POST", headers, body: offerBody }
      ],
      [
        "POST /insurance/car/quotes",
        { url: `${server.url}/insurance/car/quotes`, method: "POST", headers, body: quoteBody }
      ],
      [
        "GET /insurance/car/quotes/{id}",
        { url: `${server.url}/insurance/car/quotes/${quote.quote_id}`, method: "GET", headers }
      ]
    ]
    for (const [name, options] of endpoints) {
      await load({ ...options, duration: 2 })
      await server.command("start")
      const result = await load(options)
      await server.command("stop")
      if (result.non2xx + result.errors > 0)
        throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`)
      const { micros, functions } = attribute(JSON.parse(readFileSync(profileFile, "utf8")))
      const requests = result.requests.total
      const perRequest = Object.fromEntries(
        Object.entries(micros)
          .filter(([category]) => category !== "idle")
          .map(([category, total]) => [category, total / requests])
      )
      const hottest = Object.entries(functions)
        .filter(([name]) => !name.startsWith("(idle)"))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 40)
        .map(([name, total]) => ({ function: name, microseconds_per_request: Number((total / requests).toFixed(2)) }))
      results[name] = {
        requests_per_second: result.requests.average,
        requests,
        microseconds_per_request: perRequest,
        hottest_functions: hottest
      }
    }
  } finally {
    server.child.kill("SIGTERM")
  }
} finally {
  rmSync(directory, { recursive: true, force: true })
}

const categories = [
  ...new Set(Object.values(results).flatMap((result) => Object.keys(result.microseconds_per_request)))
].sort(
  (a, b) =>
    Math.max(...Object.values(results).map((result) => result.microseconds_per_request[b] ?? 0)) -
    Math.max(...Object.values(results).map((result) => result.microseconds_per_request[a] ?? 0))
)
const names = Object.keys(results)
const lines = [
  `| µs per request (${label}) | ${names.join(" | ")} |`,
  `|---|${names.map(() => "---:").join("|")}|`,
  ...categories.map(
    (category) =>
      `| ${category} | ${names.map((name) => (results[name].microseconds_per_request[category] ?? 0).toFixed(1)).join(" | ")} |`
  ),
  `| **total (CPU)** | ${names
    .map(
      (name) =>
        `**${Object.values(results[name].microseconds_per_request)
          .reduce((sum, value) => sum + value, 0)
          .toFixed(1)}**`
    )
    .join(" | ")} |`,
  `| requests/s under the profiler | ${names.map((name) => Math.round(results[name].requests_per_second)).join(" | ")} |`
]
console.log(lines.join("\n"))
if (process.env.KASKO_PROFILE_FUNCTIONS !== undefined) {
  for (const [name, result] of Object.entries(results)) {
    console.log(`\nhottest functions, ${name} (µs per request, self time)`)
    for (const row of result.hottest_functions)
      console.log(`${String(row.microseconds_per_request).padStart(8)}  ${row.function}`)
  }
}
mkdirSync(join(import.meta.dirname, "results"), { recursive: true })
writeFileSync(
  join(import.meta.dirname, "results", `profile-${label}.json`),
  `${JSON.stringify({ measured_at: new Date().toISOString(), label, results }, null, 2)}\n`
)
