/**
 * Webhooks from `kasko serve` as a process, on its SQLite default: a partner
 * subscribed with `kasko webhooks add` receives its quotes' events, signed;
 * and when the service is killed (SIGKILL) again and again under load, every
 * acknowledged quote's event still arrives after a restart, while no event
 * exists for a quote that was never stored.
 */
import { Examples } from "@kasko/core"
import Database from "better-sqlite3"
import { join } from "node:path"
import { Webhook } from "standardwebhooks"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { addPartner, type PartnerCredentials } from "../http/credentials.js"
import { kaskoWith, startServiceProcess, temporaryDirectory } from "../support.js"
import { headersOf, type Receiver, startReceiver } from "./Receiver.js"

const directory = temporaryDirectory("kasko-webhooks-")
afterAll(() => directory.remove())

// the receiver is http on 127.0.0.1: what KASKO_WEBHOOKS_ALLOW_INSECURE allows for local development
// a killed instance's leased deliveries are taken over after 10 s instead of a minute
const ENVIRONMENT = { KASKO_WEBHOOKS_ALLOW_INSECURE: "true", KASKO_WEBHOOK_LEASE_MS: "10000" }

/** `kasko …` on a data directory, allowed to subscribe the local receiver. */
const kasko = (dataDirectory: string, ...args: Array<string>) =>
  kaskoWith({ KASKO_DATA_DIR: dataDirectory, ...ENVIRONMENT }, ...args)

const createQuote = (url: string, partner: PartnerCredentials) =>
  fetch(`${url}/insurance/car/quotes`, {
    method: "POST",
    headers: { ...partner.headers, "content-type": "application/json" },
    body: JSON.stringify(Examples.quoteRequest())
  })

/** Waits until `done` holds, polling; fails with `what` after `millis`. */
const eventually = async (done: () => boolean, what: string, millis = 20_000) => {
  const deadline = Date.now() + millis
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const bodiesOf = (receiver: Receiver) =>
  receiver.received.map((received) => JSON.parse(received.body) as { type: string; quote_id: string })

describe("webhooks from the service", () => {
  let receiver: Receiver
  beforeEach(async () => {
    receiver = await startReceiver()
  })
  afterEach(() => receiver.close())

  it("delivers a partner's quote events to the endpoint it subscribed, signed with its secret", async () => {
    const dataDirectory = join(directory.path, "signed")
    const partner = await addPartner(dataDirectory, "bilhuset")
    const secret = (
      await kasko(dataDirectory, "webhooks", "add", "--partner", "bilhuset", "--url", receiver.url)
    ).trim()
    const service = await startServiceProcess({ KASKO_DATA_DIR: dataDirectory, ...ENVIRONMENT })
    try {
      const created = (await (await createQuote(service.url, partner)).json()) as { quote_id: string }
      const activated = await fetch(`${service.url}/insurance/car/quotes/${created.quote_id}/activation`, {
        method: "POST",
        headers: partner.headers
      })
      expect(activated.status).toBeLessThan(300)
      await receiver.receivedAtLeast(2)
    } finally {
      await service.stop()
    }
    expect(bodiesOf(receiver).map((body) => body.type)).toEqual(["quote.created", "quote.activated"])
    for (const received of receiver.received) {
      expect(() => new Webhook(secret).verify(received.body, headersOf(received))).not.toThrow()
    }
  })

  it("delivers every acknowledged quote's event across SIGKILLs under load, and has none for a quote never stored", async () => {
    const dataDirectory = join(directory.path, "killed")
    const partner = await addPartner(dataDirectory, "leasing-co")
    await kasko(
      dataDirectory,
      "webhooks",
      "add",
      "--partner",
      "leasing-co",
      "--url",
      receiver.url,
      "--events",
      "quote.created"
    )
    const acknowledged = new Set<string>()
    for (const acknowledgementsBeforeKill of [30, 55, 80]) {
      const service = await startServiceProcess({ KASKO_DATA_DIR: dataDirectory, ...ENVIRONMENT })
      const sinceStart = acknowledged.size
      // eight clients creating quotes until the process dies under them
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (service.ended === undefined) {
            try {
              const answer = await createQuote(service.url, partner)
              const body = (await answer.json()) as { quote_id: string }
              if (answer.status !== 200 && answer.status !== 201)
                throw new Error(`answered ${answer.status}: ${JSON.stringify(body)}`)
              acknowledged.add(body.quote_id)
            } catch (error) {
              if (service.ended === undefined && !String(error).includes("fetch failed")) throw error
              return // the connection died with the process
            }
            if (acknowledged.size - sinceStart >= acknowledgementsBeforeKill && service.ended === undefined)
              service.child.kill("SIGKILL")
          }
        })
      )
    }
    const service = await startServiceProcess({ KASKO_DATA_DIR: dataDirectory, ...ENVIRONMENT })
    try {
      await eventually(
        () => [...acknowledged].every((quoteId) => bodiesOf(receiver).some((body) => body.quote_id === quoteId)),
        `the events of ${acknowledged.size} acknowledged quotes`,
        60_000
      )
    } finally {
      await service.stop()
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(30 + 55 + 80)
    const database = new Database(join(dataDirectory, "kasko.db"), { readonly: true })
    try {
      const orphans = database
        .prepare(
          `SELECT count(*) AS count FROM quote_events e
           WHERE e.type = 'quote.created' AND NOT EXISTS (SELECT 1 FROM quotes q WHERE q.quote_id = e.quote_id)`
        )
        .get() as { count: number }
      expect(orphans.count).toBe(0)
      const stored = database.prepare("SELECT count(*) AS count FROM quotes").get() as { count: number }
      const events = database.prepare("SELECT count(*) AS count FROM quote_events").get() as { count: number }
      expect(events.count).toBe(stored.count)
    } finally {
      database.close()
    }
    // at least once: a delivery cut short by a kill may arrive twice, never not at all
    expect(new Set(bodiesOf(receiver).map((body) => body.quote_id)).size).toBeGreaterThanOrEqual(acknowledged.size)
  }, 120_000)
})
