/**
 * Mixed traffic for 30 seconds at the highest rate this machine sustains (32
 * clients in a closed loop, loopback only): offers, quote creation, retrieval
 * and activation against the real service on SQLite FULL with real
 * credentials. No 5xx; every quote acknowledged with 200 is retrievable
 * afterwards; the rate and p99 latency are reported.
 */
import { Examples } from "@kasko/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import { addPartner, type PartnerCredentials } from "./credentials.js"
import { startTestService, type TestService } from "./support.js"

const SECONDS = 30
const CLIENTS = 32

const directory = temporaryDirectory("kasko-load-")
let server: TestService
let partners: Array<PartnerCredentials> = []

beforeAll(async () => {
  partners = [await addPartner(directory.path, "load-one"), await addPartner(directory.path, "load-two")]
  server = await startTestService({
    dataDirectory: directory.path,
    authentication: "real",
    environment: { KASKO_RATE_LIMIT_PER_MINUTE: "10000000" }
  })
})
afterAll(async () => {
  await server.stop()
  directory.remove()
})

const percentile = (sorted: ReadonlyArray<number>, fraction: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!

describe("load", () => {
  it(`holds ${SECONDS} s of mixed traffic from ${CLIENTS} clients: no 5xx, no acknowledged quote lost`, async () => {
    const offerBody = JSON.stringify(
      Examples.offerRequest(Examples.standardParameters({ vehicle_price: "350000", youngest_user_age: "23" }))
    )
    const quoteBody = JSON.stringify(Examples.quoteRequest())
    const acknowledged: Array<{ partner: PartnerCredentials; quoteId: string }> = []
    const latencies: Array<number> = []
    const statuses = new Map<number, number>()
    const deadline = Date.now() + SECONDS * 1000

    const call = async (partner: PartnerCredentials, method: string, path: string, body?: string) => {
      const started = performance.now()
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: body === undefined ? partner.headers : { ...partner.headers, "content-type": "application/json" },
        ...(body === undefined ? {} : { body })
      })
      const text = await response.text()
      latencies.push(performance.now() - started)
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      return { status: response.status, text }
    }

    const client = async (index: number) => {
      const partner = partners[index % partners.length]!
      const mine: Array<string> = []
      for (let step = 0; Date.now() < deadline; step++) {
        const choice = step % 10
        if (choice < 4) {
          await call(partner, "POST", "/insurance/car/offers", offerBody)
        } else if (choice < 7) {
          const created = await call(partner, "POST", "/insurance/car/quotes", quoteBody)
          if (created.status === 200) {
            const quoteId = JSON.parse(created.text).quote_id as string
            acknowledged.push({ partner, quoteId })
            mine.push(quoteId)
          }
        } else if (choice < 9 && mine.length > 0) {
          await call(partner, "GET", `/insurance/car/quotes/${mine[step % mine.length]}`)
        } else if (mine.length > 0) {
          await call(partner, "POST", `/insurance/car/quotes/${mine[step % mine.length]}/activation`)
        }
      }
    }

    const started = performance.now()
    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)))
    const elapsedSeconds = (performance.now() - started) / 1000

    const sorted = [...latencies].sort((a, b) => a - b)
    const report = {
      requests: latencies.length,
      requests_per_second: Math.round(latencies.length / elapsedSeconds),
      p50_ms: Math.round(percentile(sorted, 0.5) * 10) / 10,
      p99_ms: Math.round(percentile(sorted, 0.99) * 10) / 10,
      statuses: Object.fromEntries(statuses),
      quotes_acknowledged: acknowledged.length
    }
    console.log(`load: ${JSON.stringify(report)}`)

    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([])
    // the traffic is well-formed and each partner touches only its own quotes: nothing but 200
    expect([...statuses.keys()]).toEqual([200])
    expect(acknowledged.length).toBeGreaterThan(100)

    // every acknowledged quote is there, for its own partner
    const missing: Array<string> = []
    for (const { partner, quoteId } of acknowledged) {
      const response = await fetch(`${server.url}/insurance/car/quotes/${quoteId}`, { headers: partner.headers })
      await response.text()
      if (response.status !== 200) missing.push(`${quoteId}: ${response.status}`)
    }
    expect(missing).toEqual([])
  }, 120_000)
})
