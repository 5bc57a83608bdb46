/**
 * A partner's webhook backlog written straight into a SQLite data directory, as an abusive partner would
 * have made it over time: subscriptions (as many as wanted, cap or no cap) and quote events not yet fanned
 * out to them. Made with one transaction, so a test builds 100 000 deliveries' worth in a second.
 */
import Database from "better-sqlite3"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"

export interface BacklogSeed {
  readonly dataDirectory: string
  readonly partnerId: string
  readonly urls: ReadonlyArray<string>
  readonly events: number
  /** Whether the events are fanned out already: a delivery per subscription and event, pending and due. */
  readonly fannedOut?: boolean
  /** The number of the first quote the events are of (0 by default), so that two seeds of one partner differ. */
  readonly firstQuote?: number
  /** Epoch ms the events occurred at (now by default). */
  readonly occurredAt?: number
}

const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`

/** Writes the partner's subscriptions to `urls` and `events` quote.created events, none fanned out yet. */
export const seedBacklog = (seed: BacklogSeed): void => {
  const database = new Database(join(seed.dataDirectory, "kasko.db"))
  try {
    const now = seed.occurredAt ?? Date.now()
    const subscription = database.prepare(
      `INSERT INTO webhook_subscriptions (subscription_id, partner_id, url, event_types, secret, created_at)
       VALUES (?, ?, ?, '["quote.created","quote.activated","quote.expired"]', ?, ?)`
    )
    const event = database.prepare(
      `INSERT INTO quote_events (event_id, type, occurred_at, partner_id, quote_id, payload)
       VALUES (?, 'quote.created', ?, ?, ?, ?)`
    )
    const delivery = database.prepare(
      `INSERT INTO webhook_deliveries (delivery_id, subscription_id, event_position, event_id, partner_id, quote_id,
                                       state, attempts, created_at, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`
    )
    // the partner's fan-out cursor as its first subscription starts it (SqliteWebhookSubscriptions): at the last event
    const startFanOut = database.prepare(
      `INSERT INTO webhook_fan_out (partner_id, fanned_out_to)
       VALUES (?, (SELECT COALESCE(MAX(position), 0) FROM quote_events)) ON CONFLICT DO NOTHING`
    )
    const advanceFanOut = database.prepare("UPDATE webhook_fan_out SET fanned_out_to = ? WHERE partner_id = ?")
    const subscriptionIds = seed.urls.map((_, index) => `whk_${seed.partnerId}_${index}`)
    database.transaction(() => {
      if (seed.urls.length > 0) startFanOut.run(seed.partnerId)
      for (const [index, url] of seed.urls.entries())
        subscription.run(subscriptionIds[index], seed.partnerId, url, SECRET, now)
      for (let index = 0; index < seed.events; index++) {
        const quoteId = `00000000-0000-7000-8000-${String((seed.firstQuote ?? 0) + index).padStart(12, "0")}`
        const eventId = `evt_${seed.partnerId}_${quoteId}_created`
        const position = Number(
          event.run(eventId, now, seed.partnerId, quoteId, JSON.stringify({ id: eventId, type: "quote.created" }))
            .lastInsertRowid
        )
        if (seed.fannedOut !== true) continue
        for (const subscriptionId of subscriptionIds)
          delivery.run(
            `dlv_${subscriptionId}_${eventId}`,
            subscriptionId,
            position,
            eventId,
            seed.partnerId,
            quoteId,
            now,
            now
          )
        advanceFanOut.run(position, seed.partnerId)
      }
    })()
  } finally {
    database.close()
  }
}

/** How the partner's deliveries stand: how many exist, how many attempts were made. */
export const deliveriesOf = (dataDirectory: string, partnerId: string) => {
  const database = new Database(join(dataDirectory, "kasko.db"), { readonly: true })
  try {
    return database
      .prepare<[string], { deliveries: number; attempts: number }>(
        "SELECT COUNT(*) AS deliveries, COALESCE(SUM(attempts), 0) AS attempts FROM webhook_deliveries WHERE partner_id = ?"
      )
      .get(partnerId)!
  } finally {
    database.close()
  }
}

/** A URL on 127.0.0.2 where nothing listens: every attempt is refused at once. */
export const refusingUrl = async (): Promise<string> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.2:${port}/hooks`
}

export interface HangingEndpoint {
  readonly url: string
  /** Requests that arrived (and hang). */
  readonly arrived: () => number
  /** Resolves once `count` requests have arrived. */
  readonly arrivedAtLeast: (count: number) => Promise<void>
  /** Requests whose sender gave up waiting (closed the connection): attempts that timed out. */
  readonly givenUp: () => number
  readonly close: () => Promise<void>
}

/** An endpoint on 127.0.0.2 that reads each request and never answers. */
export const hangingEndpoint = async (): Promise<HangingEndpoint> => {
  let arrived = 0
  let givenUp = 0
  const waiting: Array<{ readonly count: number; readonly resolve: () => void }> = []
  const server: Server = createServer((request, response) => {
    arrived++
    request.resume()
    // closed before any answer: the sender gave up (this endpoint closes nothing until `close`)
    response.once("close", () => givenUp++)
    for (const waiter of waiting.filter(({ count }) => arrived >= count)) {
      waiting.splice(waiting.indexOf(waiter), 1)
      waiter.resolve()
    }
  })
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.2:${port}/hooks`,
    arrived: () => arrived,
    arrivedAtLeast: (count) =>
      arrived >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })),
    givenUp: () => givenUp,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
