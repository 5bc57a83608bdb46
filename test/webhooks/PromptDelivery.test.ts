/**
 * A quote's event is sent when its commit wakes the instance's dispatcher, not at the dispatcher's next poll
 * (a second): on a service whose poll never comes, quotes made one after another each reach the endpoint.
 * How soon after the commit is measured by `pnpm bench` (bench/webhooks.mjs, the delivery latency round).
 */
import { Examples } from "@kasko/core"
import { Duration, Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { asPartner, startTestService, type TestService } from "../http/support.js"
import { kaskoWith } from "../support.js"
import { type Receiver, startReceiver } from "./Receiver.js"

// the dispatcher's poll interval (WebhookDispatcher's default): on this service's clock such a wait never ends
const POLL = Duration.seconds(1)

let service: TestService
let receiver: Receiver
beforeAll(async () => {
  service = await startTestService({
    environment: { KASKO_WEBHOOKS_ALLOW_INSECURE: "true" },
    sleep: (duration, adjustable) =>
      Duration.isGreaterThanOrEqualTo(duration, POLL) ? Effect.never : adjustable.sleep(duration)
  })
  receiver = await startReceiver()
})
afterAll(async () => {
  await service.stop()
  await receiver.close()
})

it("delivers each quote's event though the dispatcher's poll never comes: the commit wakes it", async () => {
  const environment = { KASKO_DATA_DIR: service.dataDirectory, KASKO_WEBHOOKS_ALLOW_INSECURE: "true" }
  await kaskoWith(environment, "partners", "add", "--id", "partner-a", "--name", "Partner A")
  await kaskoWith(
    environment,
    "webhooks",
    "add",
    "--partner",
    "partner-a",
    "--url",
    receiver.url,
    "--events",
    "quote.created"
  )
  for (let quote = 1; quote <= 7; quote++) {
    const answer = await fetch(`${service.url}/insurance/car/quotes`, {
      method: "POST",
      headers: { ...asPartner("partner-a"), "content-type": "application/json" },
      body: JSON.stringify(Examples.quoteRequest())
    })
    expect(answer.status).toBe(200)
    // only a wake-up can bring it: without one the test runs out of time here
    await receiver.receivedAtLeast(quote)
  }
  expect(receiver.received).toHaveLength(7)
})
