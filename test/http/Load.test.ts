/**
 * Mixed traffic as fast as this machine takes it (32 clients in a closed loop,
 * 100 requests each, loopback only): offers, quote creation, retrieval and
 * activation against the real service on SQLite FULL with real credentials.
 * No 5xx; every quote acknowledged with 200 is retrievable afterwards. The
 * rate and latency are `pnpm bench`'s (its HTTP section): counted, not timed,
 * the test asks the same of a fast machine and a busy one.
 */
import { Examples } from "@kasko/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import { addPartner, type PartnerCredentials } from "./credentials.js"
import { startTestService, type TestService } from "./support.js"

const STEPS = 100
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

describe("load", () => {
  it(`holds ${STEPS} steps of mixed traffic from each of ${CLIENTS} clients: no 5xx, no acknowledged quote lost`, async () => {
    const offerBody = JSON.stringify(
      Examples.offerRequest(Examples.standardParameters({ vehicle_price: "350000", youngest_user_age: "23" }))
    )
    const quoteBody = JSON.stringify(Examples.quoteRequest())
    const acknowledged: Array<{ partner: PartnerCredentials; quoteId: string }> = []
    const statuses = new Map<number, number>()

    const call = async (partner: PartnerCredentials, method: string, path: string, body?: string) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: body === undefined ? partner.headers : { ...partner.headers, "content-type": "application/json" },
        ...(body === undefined ? {} : { body })
      })
      const text = await response.text()
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      return { status: response.status, text }
    }

    const client = async (index: number) => {
      const partner = partners[index % partners.length]!
      const mine: Array<string> = []
      for (let step = 0; step < STEPS; step++) {
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

    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)))
    console.log(
      `load: ${JSON.stringify({ statuses: Object.fromEntries(statuses), quotes_acknowledged: acknowledged.length })}`
    )

    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([])
    // the traffic is well-formed and each partner touches only its own quotes: nothing but 200
    expect([...statuses.keys()]).toEqual([200])
    // three quotes in every ten steps
    expect(acknowledged.length).toBe((CLIENTS * STEPS * 3) / 10)

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
