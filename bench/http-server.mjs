// A server under test, in its own process so the load generator does not share its core.
//   node http-server.mjs kasko <dataDirectory>   the real service: SQLite FULL, bearer token + key
//   node http-server.mjs express <sizes.json>    bare Express 5 answering fixed bodies of the same sizes
//   node http-server.mjs node <sizes.json>       bare node:http doing the same: the runtime's limit
//   node http-server.mjs rival <dataDirectory>   the service a team would write by hand instead (rival/)
//   node http-server.mjs receiver                a webhook endpoint: answers 204, GET /count says how many it got
//   node http-server.mjs hanging                 a webhook endpoint that never answers
//   node http-server.mjs latency                 a webhook endpoint that answers 204 and keeps each event's time
//                                                from occurring to arriving (ms); GET /latencies answers them
// Prints {"port": …} on stdout when it listens.
import express from "express"
import { readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { createInterface } from "node:readline"

const [mode, argument] = process.argv.slice(2)

/** Fixed answers of the sizes kasko's offer and quote answers have. */
const fixedBodies = () => {
  const sizes = JSON.parse(readFileSync(argument, "utf8"))
  const bodyOf = (size) => JSON.stringify({ padding: "x".repeat(Math.max(0, size - 14)) })
  return { offer: bodyOf(sizes.offer), quote: bodyOf(sizes.quote) }
}

const announce = (port) => process.stdout.write(`${JSON.stringify({ port })}\n`)

if (mode === "express") {
  const { offer, quote } = fixedBodies()
  const app = express()
  app.disable("x-powered-by")
  app.post("/offers", express.json(), (_request, response) => void response.type("json").send(offer))
  app.post("/quotes", express.json(), (_request, response) => void response.type("json").send(quote))
  app.get("/quotes/:id", (_request, response) => void response.type("json").send(quote))
  const server = app.listen(0, "127.0.0.1", () => announce(server.address().port))
} else if (mode === "node") {
  // the runtime's limit: node:http reading the JSON body and answering a fixed one, nothing else
  const { offer, quote } = fixedBodies()
  const answer = (response, body) => {
    response.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body)
    })
    response.end(body)
  }
  const server = createServer((request, response) => {
    if (request.method === "GET") return answer(response, quote)
    const chunks = []
    request.on("data", (chunk) => chunks.push(chunk))
    request.on("end", () => {
      JSON.parse(Buffer.concat(chunks).toString("utf8"))
      answer(response, request.url === "/offers" ? offer : quote)
    })
  })
  server.listen(0, "127.0.0.1", () => announce(server.address().port))
} else if (mode === "rival") {
  const { startRival } = await import("./rival/server.mjs")
  // production logging as the team would configure it, here to /dev/null; the one key's rate limit lifted
  const rival = await startRival({
    dataDirectory: argument,
    logDestination: "/dev/null",
    rateLimitPerMinute: 10_000_000
  })
  announce(rival.port)
  process.on("SIGTERM", () => void rival.stop().then(() => process.exit(0)))
} else if (mode === "hanging") {
  // a webhook endpoint that reads each request and never answers
  const server = createServer((request) => request.resume())
  server.listen(0, "127.0.0.1", () => announce(server.address().port))
} else if (mode === "latency") {
  const latencies = []
  const server = createServer((request, response) => {
    if (request.method === "GET") return response.end(JSON.stringify(latencies))
    const chunks = []
    request.on("data", (chunk) => chunks.push(chunk))
    request.on("end", () => {
      const { occurred_at } = JSON.parse(Buffer.concat(chunks).toString("utf8"))
      latencies.push(Date.now() - Date.parse(occurred_at))
      response.writeHead(204).end()
    })
  })
  server.listen(0, "127.0.0.1", () => announce(server.address().port))
} else if (mode === "receiver") {
  let received = 0
  const server = createServer((request, response) => {
    if (request.method === "GET") return response.end(String(received))
    request.resume()
    request.on("end", () => {
      received += 1
      response.writeHead(204).end()
    })
  })
  server.listen(0, "127.0.0.1", () => announce(server.address().port))
} else {
  const { makeLogger, readServiceConfig, startService } = await import("@kasko/server")
  // the load generator uses one subscription key: lift its rate limit
  const config = readServiceConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    KASKO_DATA_DIR: argument,
    KASKO_SQLITE_SYNCHRONOUS: "FULL",
    KASKO_RATE_LIMIT_PER_MINUTE: "10000000",
    // the webhooks section subscribes a receiver on loopback over http
    KASKO_WEBHOOKS_ALLOW_INSECURE: "true",
    // the observability section turns metrics or traces on
    ...JSON.parse(process.env.KASKO_BENCH_SERVICE_ENV ?? "{}")
  })
  // production logging: one JSON line per request, written as `kasko serve` writes it (here to /dev/null)
  const logger = makeLogger(config.success, "/dev/null")
  const service = await startService({ config: config.success, logger })
  announce(service.port)
  // profile.mjs drives V8's CPU profiler through standard input: "start", then "stop" writes the profile
  const profileFile = process.env.KASKO_BENCH_PROFILE
  if (profileFile !== undefined) {
    const { Session } = await import("node:inspector/promises")
    const session = new Session()
    session.connect()
    await session.post("Profiler.enable")
    await session.post("Profiler.setSamplingInterval", { interval: 100 })
    createInterface({ input: process.stdin }).on("line", async (line) => {
      if (line === "start") await session.post("Profiler.start")
      if (line === "stop") writeFileSync(profileFile, JSON.stringify((await session.post("Profiler.stop")).profile))
      process.stdout.write(`${JSON.stringify({ done: line })}\n`)
    })
  }
  process.on("SIGTERM", () => void service.stop().then(() => process.exit(0)))
}
