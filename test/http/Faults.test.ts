/**
 * Failures that are the service's, not the client's: storage unavailable (503
 * with Retry-After, or 500 when retrying cannot help) and defects (500 with a
 * generic title; the details only in the log, redacted).
 */
import { Examples, QuoteStore, StorageUnavailable } from "@kasko/core"
import { makeApp } from "@kasko/express"
import { Effect, Layer, ManagedRuntime } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { pino } from "pino"
import { afterEach, describe, expect, it } from "vitest"
import { makeClient, servicesOver } from "./support.js"

const running: Array<{ server: Server; runtime: ManagedRuntime.ManagedRuntime<any, any> }> = []
afterEach(async () => {
  for (const { server, runtime } of running.splice(0)) {
    await new Promise((resolve) => server.close(resolve))
    await runtime.dispose()
  }
})

/** The app on a store whose every call behaves as `failure` does. */
const serveWithStore = async (failure: Effect.Effect<never, StorageUnavailable>, requestTimeoutMillis = 300) => {
  const store = Layer.succeed(QuoteStore.QuoteStore, {
    insert: () => failure,
    insertIdempotent: () => failure,
    find: () => failure,
    findWithoutWorksheet: () => failure,
    markActivated: () => failure,
    purge: () => failure,
    listPortfolio: () => failure,
    checkWritable: failure
  })
  const runtime = ManagedRuntime.make(servicesOver(store))
  const logLines: Array<string> = []
  const app = makeApp({
    runtime,
    logger: pino({ level: "info" }, { write: (line: string) => void logLines.push(line) }),
    bodyLimitBytes: 100_000,
    protection: { requestsPerMinute: 1_000, failedAuthenticationsPerMinute: 1_000, corsOrigins: [] },
    requestTimeoutMillis,
    document: { version: "1.0.0", serverUrl: "http://localhost" }
  })
  const server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  running.push({ server, runtime })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { client: await makeClient(url), logLines, runtime }
}

describe("service faults", () => {
  it("answers 503 with Retry-After while storage is unavailable, and readiness says so", async () => {
    const { client } = await serveWithStore(
      Effect.fail(new StorageUnavailable({ reason: "SQLITE_BUSY: database is locked", retryable: true }))
    )
    const answer = await client.request("POST", "/insurance/car/quotes", { body: Examples.quoteRequest() })
    expect(answer.status).toBe(503)
    expect(answer.headers.get("retry-after")).toBe("5")
    expect(answer.body).toMatchObject({ title: "Service Unavailable", status: 503 })
    expect(JSON.stringify(answer.body)).not.toContain("SQLITE")
    expect((await client.request("GET", "/ready")).status).toBe(503)
    expect((await client.request("GET", "/health")).status).toBe(200)
  })

  it("answers 500 when storage is broken beyond retrying", async () => {
    const { client } = await serveWithStore(
      Effect.fail(new StorageUnavailable({ reason: "SQLITE_CORRUPT", retryable: false }))
    )
    const answer = await client.request("GET", "/insurance/car/quotes/0190a000-0000-7000-8000-000000000001")
    expect(answer.status).toBe(500)
    expect(answer.body).toEqual({ type: expect.any(String), title: "Internal Server Error", status: 500 })
  })

  it("answers a defect with a generic 500 and keeps the details, redacted, in the log", async () => {
    const { client, logLines } = await serveWithStore(
      Effect.die(new Error("bug while storing CPR 0101901234 for Bearer eyJabc.def.ghi"))
    )
    const answer = await client.request("POST", "/insurance/car/quotes", { body: Examples.quoteRequest() })
    expect(answer.status).toBe(500)
    expect(answer.body).toEqual({ type: expect.any(String), title: "Internal Server Error", status: 500 })
    expect(answer.text).not.toContain("bug")
    const logged = logLines.join("\n")
    expect(logged).toContain("bug while storing CPR")
    expect(logged).not.toContain("0101901234")
    expect(logged).not.toContain("eyJabc")
  })

  it("answers 503 with Retry-After instead of hanging when storage takes longer than the request budget", async () => {
    // storage that never answers: only the request's time budget (300 ms) can end the request
    const { client } = await serveWithStore(Effect.never)
    const answer = await client.request("GET", "/insurance/car/quotes/0190a000-0000-7000-8000-000000000001")
    expect(answer.status).toBe(503)
    expect(answer.headers.get("retry-after")).toBe("5")
    expect(answer.body).toMatchObject({ title: "Service Unavailable", status: 503 })
  })

  it("answers 503 with Retry-After to a request still waiting on storage when the service stops", async () => {
    let reachedStorage = () => {}
    const waitingOnStorage = new Promise<void>((resolve) => {
      reachedStorage = resolve
    })
    // a budget longer than the test may run: only the stop can end the request
    const { client, logLines, runtime } = await serveWithStore(
      Effect.suspend(() => {
        reachedStorage()
        return Effect.never
      }),
      60_000
    )
    // built before the request, as the service builds its runtime before it listens
    await runtime.context()
    const answering = client.request("GET", "/insurance/car/quotes/0190a000-0000-7000-8000-000000000001")
    await waitingOnStorage
    await runtime.dispose()
    const answer = await answering
    expect(answer.status).toBe(503)
    expect(answer.headers.get("retry-after")).toBe("5")
    expect(logLines.join("\n")).not.toContain("over its time budget")
  })

  it("keeps serving products and offers, which need no storage", async () => {
    const { client } = await serveWithStore(Effect.fail(new StorageUnavailable({ reason: "down", retryable: true })))
    expect((await client.request("GET", "/products/insurance-car-leasing")).status).toBe(200)
    expect((await client.request("POST", "/insurance/car/offers", { body: Examples.offerRequest() })).status).toBe(200)
  })
})
