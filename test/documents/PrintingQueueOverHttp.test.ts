/**
 * Quote documents over HTTP wait their turn to print: with the renderer held, two requests print at once and 32
 * wait; the next is answered 503 problem+json with Retry-After at once, and every admitted one is answered 200
 * once printing resumes. (The per-partner document limit is in DocumentsOverHttp.test.ts.)
 */
import { DocumentRenderer, Examples } from "@kasko/core"
import { makeApp } from "@kasko/express"
import { MemoryQuoteStore } from "@kasko/memory"
import { Deferred, Effect, Layer, ManagedRuntime } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { pino } from "pino"
import { describe, expect, it } from "vitest"
import { asPartner, servicesOver } from "../http/support.js"

const AT_ONCE = 2
const WAITING = 32

describe("quote documents printed in turn", () => {
  it("prints two at once, keeps 32 waiting, answers the next 503 with Retry-After, and then every admitted one", async () => {
    const gate = Deferred.makeUnsafe<void>()
    let printing = 0
    let mostAtOnce = 0
    let printed = 0
    const heldRenderer = Layer.succeed(DocumentRenderer.DocumentRenderer, {
      render: () =>
        Effect.gen(function* () {
          printing++
          mostAtOnce = Math.max(mostAtOnce, printing)
          yield* Deferred.await(gate)
          printing--
          printed++
          return { mediaType: "application/pdf", bytes: new TextEncoder().encode("%PDF-1.7 held") }
        })
    })
    const runtime = ManagedRuntime.make(Layer.merge(servicesOver(MemoryQuoteStore.layer), heldRenderer))
    const app = makeApp({
      runtime,
      logger: pino({ level: "silent" }),
      bodyLimitBytes: 100_000,
      protection: {
        requestsPerMinute: 1_000,
        documentsPerMinute: 1_000,
        failedAuthenticationsPerMinute: 1_000,
        corsOrigins: []
      },
      requestTimeoutMillis: 30_000,
      document: { version: "1.0.0", serverUrl: "http://localhost" }
    })
    const server = createServer(app)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const created = await fetch(`${url}/insurance/car/quotes`, {
        method: "POST",
        headers: { ...asPartner("bilhuset"), "content-type": "application/json" },
        body: JSON.stringify(Examples.quoteRequest())
      })
      const quoteId = ((await created.json()) as { quote_id: string }).quote_id
      const document = () =>
        fetch(`${url}/insurance/car/quotes/${quoteId}/document`, { headers: asPartner("bilhuset") })
      const admitted = Array.from({ length: AT_ONCE + WAITING }, document)
      while (printing < AT_ONCE) await new Promise((resolve) => setTimeout(resolve, 10))
      // the others reach the queue meanwhile: local requests, well within this
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(printing).toBe(AT_ONCE)
      const refused = await document()
      expect(refused.status).toBe(503)
      expect(refused.headers.get("content-type")).toContain("application/problem+json")
      expect(refused.headers.get("retry-after")).toBe("1")
      const problem = (await refused.json()) as { title: string; detail: string }
      expect(problem.title).toBe("Service Unavailable")
      expect(problem.detail).toContain(`${WAITING} are waiting their turn`)

      Deferred.doneUnsafe(gate, Effect.void)
      const answers = await Promise.all(admitted)
      expect(answers.map((answer) => answer.status)).toEqual(admitted.map(() => 200))
      expect(printed).toBe(AT_ONCE + WAITING)
      expect(mostAtOnce).toBe(AT_ONCE)
      // the queue is free again
      expect((await document()).status).toBe(200)
    } finally {
      // a failed expectation leaves prints held: let them go, so that the server can close
      Deferred.doneUnsafe(gate, Effect.void)
      await new Promise((resolve) => server.close(resolve))
      await runtime.dispose()
    }
  })
})
