/**
 * A storage fault during traffic: the database file and its WAL become
 * read-only (the immutable attribute — as root, permissions alone would not
 * stop writes). Quote creation and readiness answer 503 with Retry-After,
 * nothing crashes, offers still price, and once the fault clears the service is
 * whole and ready again with every acknowledged quote intact.
 */
import { Examples } from "@kasko/core"
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import { addPartner, type PartnerCredentials } from "./credentials.js"
import { makeClient, startTestService, type TestService } from "./support.js"

const directory = temporaryDirectory("kasko-fault-")
let server: TestService
let client: Awaited<ReturnType<typeof makeClient>>
let partner: PartnerCredentials

const databaseFiles = () =>
  ["kasko.db", "kasko.db-wal"].map((name) => join(directory.path, name)).filter((file) => existsSync(file))
const setImmutable = (on: boolean) => execFileSync("chattr", [on ? "+i" : "-i", ...databaseFiles()])

beforeAll(async () => {
  partner = await addPartner(directory.path, "fault-partner")
  server = await startTestService({ dataDirectory: directory.path, authentication: "real" })
  client = await makeClient(server.url)
})
afterAll(async () => {
  setImmutable(false)
  await server.stop()
  directory.remove()
})

// a readiness probe's outcome answers for a second (Readiness.ts), by the service's clock
const PROBE_INTERVAL_MILLIS = 1_000

/** /ready's answer from a probe made now: the service's clock moved past the last probe's second first. */
const readinessNow = () => {
  server.adjustClock(PROBE_INTERVAL_MILLIS + 1)
  return client.request("GET", "/ready")
}

const createQuote = () =>
  client.request("POST", "/insurance/car/quotes", { body: Examples.quoteRequest(), headers: partner.headers })

describe("a storage fault", () => {
  it("answers 503 with Retry-After while the database cannot be written, and recovers when it can", async () => {
    const acknowledged: Array<string> = []
    for (let count = 0; count < 5; count++) acknowledged.push((await createQuote()).body.quote_id)

    setImmutable(true)
    try {
      const during = await Promise.all(Array.from({ length: 10 }, () => createQuote()))
      for (const answer of during) {
        expect(answer.status).toBe(503)
        expect(answer.headers.get("retry-after")).toBe("5")
        expect(answer.body).toMatchObject({ title: "Service Unavailable", status: 503 })
      }
      // pricing needs no storage, and the process is still up
      expect(
        (
          await client.request("POST", "/insurance/car/offers", {
            body: Examples.offerRequest(),
            headers: partner.headers
          })
        ).status
      ).toBe(200)
      expect((await client.request("GET", "/health")).status).toBe(200)
      // readiness tells the truth: reads still work, but the store cannot commit
      const ready = await readinessNow()
      expect(ready.status).toBe(503)
      expect(ready.headers.get("retry-after")).toBe("5")
    } finally {
      setImmutable(false)
    }
    expect((await readinessNow()).status).toBe(200)

    const after = await createQuote()
    expect(after.status).toBe(200)
    acknowledged.push(after.body.quote_id)
    for (const quoteId of acknowledged) {
      expect(
        (await client.request("GET", `/insurance/car/quotes/${quoteId}`, { headers: partner.headers })).status
      ).toBe(200)
    }
  })
})
