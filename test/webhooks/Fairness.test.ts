/**
 * One partner's webhooks cannot slow the service or other partners (SECURITY.md, "Webhooks"). Each test runs
 * `kasko serve` as a process of its own, seeds an abusive partner's backlog straight into its database, and
 * checks what another partner sees while the dispatcher works through it: its requests answered, its events
 * delivered. How fast is measured by `pnpm bench` (bench/fairness.mjs). Everything stays on loopback; the
 * abuser's endpoints are on 127.0.0.2.
 */
import { Examples } from "@kasko/core"
import { afterAll, describe, expect, it } from "vitest"
import { addPartner } from "../http/credentials.js"
import { kaskoWith, startServiceProcess, temporaryDirectory } from "../support.js"
import { deliveriesOf, hangingEndpoint, refusingUrl, seedBacklog } from "./Backlog.js"
import { startReceiver } from "./Receiver.js"

const directory = temporaryDirectory("kasko-fairness-")
afterAll(() => directory.remove())

const ENVIRONMENT = { KASKO_WEBHOOKS_ALLOW_INSECURE: "true", KASKO_RATE_LIMIT_PER_MINUTE: "1000000" }

describe("one partner's webhook backlog", () => {
  // building the 100 000-delivery backlog and working through it takes ~15 s on the 2-core machines, ~30 s while
  // two other processes keep both cores busy, over 60 s with other suites beside it: three minutes leave room.
  // How fast the other partner is answered meanwhile is `pnpm bench`'s (bench/fairness.mjs, budget p99 ≤ 50 ms).
  it("leaves another partner answered while 100 000 of its deliveries fail and more fan out", async () => {
    const dataDirectory = `${directory.path}/backlog`
    await addPartner(dataDirectory, "flooder")
    const bystander = await addPartner(dataDirectory, "bystander")
    const nowhere = await refusingUrl()
    const urls = Array.from({ length: 20 }, () => nowhere)
    // 5 000 events × 20 subscriptions fanned out, all due; 1 000 more events still to fan out (20 000 deliveries)
    seedBacklog({ dataDirectory, partnerId: "flooder", urls, events: 5_000, fannedOut: true })
    seedBacklog({ dataDirectory, partnerId: "flooder", urls: [], events: 1_000, firstQuote: 5_000 })
    const service = await startServiceProcess({ KASKO_DATA_DIR: dataDirectory, ...ENVIRONMENT })
    try {
      // the other partner asks until the dispatcher has fanned out the new events and made a thousand attempts:
      // counted in the outbox, every 100 requests, however long that takes this machine
      const statuses = new Set<number>()
      let backlog = deliveriesOf(dataDirectory, "flooder")
      for (let request = 1; backlog.deliveries <= 100_000 || backlog.attempts <= 1_000; request++) {
        const answer = await fetch(`${service.url}/products/insurance-car-leasing`, { headers: bystander.headers })
        await answer.arrayBuffer()
        statuses.add(answer.status)
        if (request % 100 === 0) backlog = deliveriesOf(dataDirectory, "flooder")
      }
      expect([...statuses]).toEqual([200])
    } finally {
      await service.stop()
    }
  }, 180_000)
})

describe("one partner's hanging endpoints", () => {
  it("hold back none of another partner's events: it arrives before any attempt of theirs has timed out", async () => {
    // longer than the test may run: an event held until an attempt times out would never arrive in time
    const TIMEOUT = 60_000
    const dataDirectory = `${directory.path}/hanging`
    await addPartner(dataDirectory, "hanger")
    const bystander = await addPartner(dataDirectory, "bystander")
    const receiver = await startReceiver()
    const hanging = await hangingEndpoint()
    try {
      await kaskoWith(
        { KASKO_DATA_DIR: dataDirectory, ...ENVIRONMENT },
        ...["webhooks", "add", "--partner", "bystander", "--url", receiver.url, "--events", "quote.created"]
      )
      // 150 subscriptions to an endpoint that never answers, 20 events each: 3 000 deliveries due at once
      seedBacklog({
        dataDirectory,
        partnerId: "hanger",
        urls: Array.from({ length: 150 }, () => hanging.url),
        events: 20,
        fannedOut: true
      })
      const service = await startServiceProcess({
        KASKO_DATA_DIR: dataDirectory,
        KASKO_WEBHOOK_TIMEOUT_MS: String(TIMEOUT),
        KASKO_WEBHOOK_LEASE_MS: String(2 * TIMEOUT),
        ...ENVIRONMENT
      })
      try {
        // the dispatcher is busy with the hanging endpoints (their partner's share of its slots: 10) before the
        // other partner's quote is made
        await hanging.arrivedAtLeast(10)
        const answer = await fetch(`${service.url}/insurance/car/quotes`, {
          method: "POST",
          headers: { ...bystander.headers, "content-type": "application/json" },
          body: JSON.stringify(Examples.quoteRequest())
        })
        expect(answer.status).toBe(200)
        await receiver.receivedAtLeast(1)
        expect(hanging.givenUp()).toBe(0)
        expect(hanging.arrived()).toBeGreaterThanOrEqual(10)
        expect(receiver.received).toHaveLength(1)
      } finally {
        await service.stop()
      }
    } finally {
      await hanging.close()
      await receiver.close()
    }
  })
})
