// A server under test, in its own process so the load generator does not share its core.
//   node http-server.mjs kasko <dataDirectory>   the real service: SQLite FULL, bearer token + key
//   node http-server.mjs baseline <sizes.json>   bare Express 5 answering fixed bodies of the same sizes
// Prints {"port": …} on stdout when it listens.
import express from "express"
import { readFileSync } from "node:fs"
import { pino } from "pino"

const [mode, argument] = process.argv.slice(2)

if (mode === "baseline") {
  const sizes = JSON.parse(readFileSync(argument, "utf8"))
  const bodyOf = (size) => JSON.stringify({ padding: "x".repeat(Math.max(0, size - 14)) })
  const offer = bodyOf(sizes.offer)
  const quote = bodyOf(sizes.quote)
  const app = express()
  app.disable("x-powered-by")
  app.post("/offers", express.json(), (_request, response) => void response.type("json").send(offer))
  app.post("/quotes", express.json(), (_request, response) => void response.type("json").send(quote))
  app.get("/quotes/:id", (_request, response) => void response.type("json").send(quote))
  const server = app.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`))
} else {
  const { readServiceConfig, startService } = await import("@kasko/server")
  // the load generator uses one subscription key: lift its rate limit
  const config = readServiceConfig({ PORT: "0", HOST: "127.0.0.1", KASKO_DATA_DIR: argument, KASKO_SQLITE_SYNCHRONOUS: "FULL", KASKO_RATE_LIMIT_PER_MINUTE: "10000000" })
  // production logging: one JSON line per request, written asynchronously (here to /dev/null)
  const logger = pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: false }))
  const service = await startService({ config: config.right, logger })
  process.stdout.write(`${JSON.stringify({ port: service.port })}\n`)
  process.on("SIGTERM", () => void service.stop().then(() => process.exit(0)))
}
