/**
 * Two `kasko serve` instances on one PostgreSQL database deliver webhooks
 * together: every event of quotes created and activated on either instance
 * arrives once — leases taken with FOR UPDATE SKIP LOCKED keep the two from
 * sending one delivery twice in a run without faults — and a quote's events
 * arrive in order.
 */
import { Examples } from "@kasko/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Receiver, startReceiver } from "../webhooks/Receiver.js"
import { twoInstancesOnOneSchema } from "./ServiceInstances.js"

const { call, kasko } = twoInstancesOnOneSchema("kasko_webhooks", "fleet-partner")

let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

const QUOTES = 60

describe("webhooks from two instances on one PostgreSQL database", () => {
  it("delivers every event once, in order per quote, whichever instance made it", async () => {
    await kasko("webhooks", "add", "--partner", "fleet-partner", "--url", receiver.url)
    const quoteIds = await Promise.all(
      Array.from({ length: QUOTES }, async (_, index) => {
        const created = await call(index % 2, "POST", "/insurance/car/quotes", Examples.quoteRequest())
        expect(created.status).toBe(200)
        return created.body.quote_id as string
      })
    )
    // every other quote activated, on the instance that did not create it
    await Promise.all(
      quoteIds
        .filter((_, index) => index % 2 === 0)
        .map(async (quoteId, index) => {
          const activated = await call((index + 1) % 2, "POST", `/insurance/car/quotes/${quoteId}/activation`)
          expect(activated.status).toBe(200)
        })
    )
    const expected = QUOTES + QUOTES / 2
    await receiver.receivedAtLeast(expected)
    // until the outbox has every delivery's answer recorded (polled: nothing outside tells): an attempt is
    // recorded after its answer came, so by then every attempt recorded has arrived, and one sent twice counts two
    const deliveries = async () =>
      JSON.parse(
        await kasko("webhooks", "deliveries", "--partner", "fleet-partner", "--limit", "1000", "--json")
      ) as Array<{ readonly state: string; readonly attempts: number }>
    let recorded = await deliveries()
    while (recorded.length < expected || recorded.some((delivery) => delivery.state !== "delivered"))
      recorded = await deliveries()
    expect(recorded.filter((delivery) => delivery.attempts !== 1)).toEqual([])

    const ids = receiver.received.map((received) => String(received.headers["webhook-id"]))
    expect(receiver.received).toHaveLength(expected)
    expect(new Set(ids).size).toBe(expected)
    const bodies = receiver.received.map((received) => JSON.parse(received.body) as { type: string; quote_id: string })
    for (const quoteId of quoteIds) {
      const types = bodies.filter((body) => body.quote_id === quoteId).map((body) => body.type)
      expect(types).toEqual(
        quoteIds.indexOf(quoteId) % 2 === 0 ? ["quote.created", "quote.activated"] : ["quote.created"]
      )
    }
  }, 60_000)
})
