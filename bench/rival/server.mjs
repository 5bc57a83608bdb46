// Starts the hand-written rival service. Its data directory holds `rival.db` (partners, keys, quotes,
// outbox) and `public-key.json`, the token issuer's ES256 public JWK.
import { importJWK } from "jose"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { join } from "node:path"
import pino from "pino"
import { rivalApp } from "./app.mjs"
import { openStore } from "./store.mjs"

export const rivalDatabase = (dataDirectory) => join(dataDirectory, "rival.db")
export const rivalPublicKey = (dataDirectory) => join(dataDirectory, "public-key.json")

/** Listens on `host:port` (0: any free port); resolves to the port and a stop function. */
export const startRival = async ({
  dataDirectory,
  host = "127.0.0.1",
  port = 0,
  issuer = "kasko",
  audience = "kasko-partner-api",
  rateLimitPerMinute = 600,
  logDestination = 1,
  publicUrl
}) => {
  const publicKey = await importJWK(JSON.parse(readFileSync(rivalPublicKey(dataDirectory), "utf8")), "ES256")
  const store = openStore(rivalDatabase(dataDirectory))
  const logger = pino(pino.destination(logDestination))
  const server = createServer()
  await new Promise((resolve) => server.listen(port, host, resolve))
  const listening = server.address().port
  const app = rivalApp({
    store,
    publicKey,
    issuer,
    audience,
    logger,
    publicUrl: publicUrl ?? `http://localhost:${listening}`,
    rateLimitPerMinute
  })
  server.on("request", app)
  return {
    port: listening,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => {
          store.close()
          logger.flush()
          resolve()
        })
        server.closeIdleConnections()
      })
  }
}
