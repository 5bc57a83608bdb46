/**
 * A request over its time budget is interrupted, not merely answered: the
 * 503 goes out, and the store write it was waiting to make never happens
 * afterwards. Here the store (SQLite) holds each write until the test lets
 * it go, and the budget's clock runs out when the test says: no wall clock.
 */
import { Examples, QuoteStore } from "@kasko/core"
import { makeApp } from "@kasko/express"
import { SqliteConnection, SqliteQuoteStore } from "@kasko/sqlite"
import Database from "better-sqlite3"
import { Clock, Deferred, Effect, Layer, ManagedRuntime } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { pino } from "pino"
import { afterAll, describe, expect, it } from "vitest"
import { servicesOver } from "../http/support.js"
import { temporaryDirectory } from "../support.js"

const BUDGET_MILLIS = 300

const directory = temporaryDirectory("kasko-budget-")
afterAll(() => directory.remove())

/** The live clock, but its sleeps (the budget's) end only when `expire` is called: the budget runs out on demand. */
const budgetClock = () => {
  const live = Clock.Clock.defaultValue()
  const sleeping = new Set<() => void>()
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: () => live.currentTimeMillisUnsafe(),
    currentTimeMillis: live.currentTimeMillis,
    currentTimeNanosUnsafe: () => live.currentTimeNanosUnsafe(),
    currentTimeNanos: live.currentTimeNanos,
    monotonicTimeNanosUnsafe: () => live.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: live.monotonicTimeNanos,
    sleep: () =>
      Effect.callback<void>((resume) => {
        const wake = () => resume(Effect.void)
        sleeping.add(wake)
        return Effect.sync(() => sleeping.delete(wake))
      })
  }
  return {
    clock,
    sleeping: () => sleeping.size,
    expire: () => {
      for (const wake of [...sleeping]) wake()
    }
  }
}

describe("a request over its time budget", () => {
  it("answers 503 with Retry-After, and its quote is not stored then or afterwards", async () => {
    const filename = directory.newFile("quotes.db")
    const connection = SqliteConnection.openConnection({ filename })
    const sqlite = SqliteQuoteStore.makeQuoteStore(connection)
    let startedWriting: () => void = () => undefined
    const writing = new Promise<void>((resolve) => {
      startedWriting = resolve
    })
    const gate = Deferred.makeUnsafe<void>()
    let interrupted = false
    const heldStore = Layer.succeed(QuoteStore.QuoteStore, {
      ...sqlite,
      insert: (quote) =>
        Effect.sync(() => startedWriting()).pipe(
          Effect.andThen(Deferred.await(gate)),
          Effect.onInterrupt(() =>
            Effect.sync(() => {
              interrupted = true
            })
          ),
          Effect.andThen(sqlite.insert(quote))
        )
    })
    const budget = budgetClock()
    const runtime = ManagedRuntime.make(Layer.merge(servicesOver(heldStore), Layer.succeed(Clock.Clock, budget.clock)))
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
      const answered = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/insurance/car/quotes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(Examples.quoteRequest())
      })
      // the request waits on its write, with one budget running: the one of that wait
      await writing
      expect(budget.sleeping()).toBe(1)
      budget.expire()
      const answer = await answered
      expect(answer.status).toBe(503)
      expect(answer.headers.get("retry-after")).toBe("5")
      expect(interrupted).toBe(true)
      // the write it waited to make, let go now, is never made: the request's fiber no longer waits on it
      await Effect.runPromise(Deferred.succeed(gate, undefined))
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
