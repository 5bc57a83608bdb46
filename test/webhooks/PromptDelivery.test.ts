/**
 * A quote's event is sent when its commit wakes the instance's dispatcher, not at the dispatcher's next poll
 * (a second): quotes made one after another each reach the endpoint within a fraction of the poll.
 */
import { Examples } from "@kasko/core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { asPartner, startTestService, type TestService } from "../http/support.js"
import { kaskoWith } from "../support.js"
import { type Receiver, startReceiver } from "./Receiver.js"

let service: TestService
let receiver: Receiver
beforeAll(async () => {
  service = await startTestService({ environment: { KASKO_WEBHOOKS_ALLOW_INSECURE: "true" } })
  receiver = await startReceiver()
})
afterAll(async () => {
  await service.stop()
  await receiver.close()
})

it("delivers each quote's event within 200 ms of its answer, the median of seven, where the poll is 1 s", async () => {
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
  const latencies: Array<number> = []
  for (let quote = 0; quote < 7; quote++) {
    const before = receiver.received.length
    const answer = await fetch(`${service.url}/insurance/car/quotes`, {
      method: "POST",
      headers: { ...asPartner("partner-a"), "content-type": "application/json" },
      body: JSON.stringify(Examples.quoteRequest())
    })
    expect(answer.status).toBe(200)
    const answered = performance.now()
    const deadline = answered + 5_000
    while (receiver.received.length === before && performance.now() < deadline)
      await new Promise((wait) => setTimeout(wait, 2))
    latencies.push(performance.now() - answered)
    // apart by more than the dispatcher's busy interval, as quotes made by hand would be
    await new Promise((wait) => setTimeout(wait, 150))
  }
  latencies.sort((a, b) => a - b)
  expect(receiver.received).toHaveLength(7)
  expect(latencies[3]).toBeLessThan(200)
})
