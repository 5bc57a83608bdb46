/**
 * A request over its time budget is interrupted, not merely answered: the
 * 503 goes out, and the store write it was waiting to make never happens
 * afterwards. Here the store (SQLite) is slowed down before each write.
 */
import { Examples, QuoteStore } from "@kasko/core"
import { makeApp } from "@kasko/express"
import { SqliteConnection, SqliteQuoteStore } from "@kasko/sqlite"
import Database from "better-sqlite3"
import { Effect, Layer, ManagedRuntime } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { pino } from "pino"
import { afterAll, describe, expect, it } from "vitest"
import { servicesOver } from "../http/support.js"
import { temporaryDirectory } from "../support.js"

const BUDGET_MILLIS = 300
const STORE_DELAY_MILLIS = 1_500

const directory = temporaryDirectory("kasko-budget-")
afterAll(() => directory.remove())

describe("a request over its time budget", () => {
  it("answers 503 with Retry-After, and its quote is not stored then or afterwards", async () => {
    const filename = directory.newFile("quotes.db")
    const connection = SqliteConnection.openConnection({ filename })
    const sqlite = SqliteQuoteStore.makeQuoteStore(connection)
    const slowStore = Layer.succeed(QuoteStore.QuoteStore, {
      ...sqlite,
      insert: (quote) => Effect.andThen(Effect.sleep(STORE_DELAY_MILLIS), sqlite.insert(quote))
    })
    const runtime = ManagedRuntime.make(servicesOver(slowStore))
    const app = makeApp({
      runtime,
      logger: pino({ level: "silent" }),
      bodyLimitBytes: 100_000,
      protection: { requestsPerMinute: 1_000, failedAuthenticationsPerMinute: 1_000, corsOrigins: [] },
      requestTimeoutMillis: BUDGET_MILLIS,
      document: { version: "1", serverUrl: "http://localhost" }
    })
    const server = createServer(app)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const started = Date.now()
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/insurance/car/quotes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(Examples.quoteRequest())
      })
      expect(answer.status).toBe(503)
      expect(answer.headers.get("retry-after")).toBe("5")
      expect(Date.now() - started).toBeLessThan(STORE_DELAY_MILLIS)
      // well past the moment the write would have happened had the request gone on
      await new Promise((resolve) => setTimeout(resolve, STORE_DELAY_MILLIS + 500))
      const reader = new Database(filename, { readonly: true })
      try {
        expect(reader.prepare("SELECT count(*) AS count FROM quotes").get()).toEqual({ count: 0 })
      } finally {
        reader.close()
      }
    } finally {
      await new Promise((resolve) => server.close(resolve))
      await runtime.dispose()
      SqliteConnection.closeConnection(connection)
    }
  })
})
