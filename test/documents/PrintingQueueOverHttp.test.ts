/**
 * Quote documents over HTTP wait their turn to print, in turns between partners (issue 43: one key's burst left
 * another partner 2 of its 10 documents, the rest 503). With the renderer held, one partner's burst of sixty
 * fills its share — two printing, ten waiting — and the rest of it is answered 429 at once; another partner's
 * ten then all wait their turn and print in rotation with the burst, not after it. Order is held by latches and
 * by the answers themselves: nothing here waits on the clock.
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
const WAITING_PER_PARTNER = 10

describe("quote documents printed in turn", () => {
  it("keeps one partner's burst to its share and prints another partner's ten in rotation with it", async () => {
    const gate = Deferred.makeUnsafe<void>()
    const printedFor: Array<string> = []
    const quoteOwners = new Map<string, string>()
    const heldRenderer = Layer.succeed(DocumentRenderer.DocumentRenderer, {
      render: (document) =>
        Effect.gen(function* () {
          const text = JSON.stringify(document)
          printedFor.push([...quoteOwners].find(([quoteNumber]) => text.includes(quoteNumber))?.[1] ?? "?")
          yield* Deferred.await(gate)
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
      const quoteOf = async (partner: string) => {
        const created = await fetch(`${url}/insurance/car/quotes`, {
          method: "POST",
          headers: { ...asPartner(partner), "content-type": "application/json" },
          body: JSON.stringify(Examples.quoteRequest())
        })
        const { quote_id } = (await created.json()) as { quote_id: string }
        quoteOwners.set(quote_id, partner)
        return quote_id
      }
      const [burstQuote, otherQuote] = [await quoteOf("burst"), await quoteOf("other")]
      const document = (partner: string, quoteId: string) =>
        fetch(`${url}/insurance/car/quotes/${quoteId}/document`, { headers: asPartner(partner) })
      /** Resolves once `count` of the answers have `status`, with those answers. */
      const once = (answers: ReadonlyArray<Promise<Response>>, status: number, count: number) =>
        new Promise<Array<Response>>((resolve) => {
          const seen: Array<Response> = []
          for (const answer of answers)
            void answer.then((response) => {
              if (response.status !== status) return
              seen.push(response)
              if (seen.length === count) resolve(seen)
            })
        })

      const burst = Array.from({ length: 60 }, () => document("burst", burstQuote))
      // the answers given at once are the refusals: once 48 are in, the other twelve print (two) or wait (ten)
      const refused = await once(burst, 429, 60 - AT_ONCE - WAITING_PER_PARTNER)
      expect(refused[0]!.headers.get("content-type")).toContain("application/problem+json")
      expect(refused[0]!.headers.get("retry-after")).toBe("1")
      expect(((await refused[0]!.json()) as { detail: string }).detail).toContain(
        `${WAITING_PER_PARTNER} of this partner's documents are waiting their turn`
      )
      expect(printedFor).toEqual(["burst", "burst"])

      const other = Array.from({ length: WAITING_PER_PARTNER }, () => document("other", otherQuote))
      // one more of the other partner's is refused only once its ten wait: all of them are in line
      const probe = document("other", otherQuote)
      expect((await probe).status).toBe(429)

      Deferred.doneUnsafe(gate, Effect.void)
      const answers = await Promise.all([...burst, ...other])
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(AT_ONCE + 2 * WAITING_PER_PARTNER)
      expect((await Promise.all(other)).map((answer) => answer.status)).toEqual(other.map(() => 200))
      // after the two printing when they came: the burst's line and the other's in turn, not one after the other
      expect(printedFor).toEqual([
        "burst",
        "burst",
        ...Array.from({ length: WAITING_PER_PARTNER }, () => ["burst", "other"]).flat()
      ])
    } finally {
      Deferred.doneUnsafe(gate, Effect.void)
      await new Promise((resolve) => server.close(resolve))
      await runtime.dispose()
    }
  })
})
