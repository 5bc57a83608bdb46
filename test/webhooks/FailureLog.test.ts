/**
 * A subscription whose endpoint the service cannot reach: the service's log says so at warn, with the reason,
 * once for the endpoint's failures of that minute — not only `kasko webhooks deliveries`.
 */
import { Examples } from "@kasko/core"
import { setImmediate as nextTurn } from "node:timers/promises"
import { afterAll, beforeAll, expect, it } from "vitest"
import { asPartner, startTestService, type TestService } from "../http/support.js"
import { kaskoWith } from "../support.js"
import { deliveriesOf, refusingUrl } from "./Backlog.js"

let service: TestService
beforeAll(async () => {
  service = await startTestService({ environment: { KASKO_WEBHOOKS_ALLOW_INSECURE: "true" } })
})
afterAll(() => service.stop())

const FAILED = "webhook delivery failed; it will be tried again"
const failureLines = () => service.logLines.filter((line) => line["msg"] === FAILED)

it("logs a refused endpoint's failures at warn with the reason, one line for a minute's failures", async () => {
  const environment = { KASKO_DATA_DIR: service.dataDirectory, KASKO_WEBHOOKS_ALLOW_INSECURE: "true" }
  await kaskoWith(environment, "partners", "add", "--id", "partner-a", "--name", "Partner A")
  const url = await refusingUrl()
  await kaskoWith(environment, "webhooks", "add", "--partner", "partner-a", "--url", url, "--events", "quote.created")
  for (let quote = 0; quote < 3; quote++) {
    const answer = await fetch(`${service.url}/insurance/car/quotes`, {
      method: "POST",
      headers: { ...asPartner("partner-a"), "content-type": "application/json" },
      body: JSON.stringify(Examples.quoteRequest())
    })
    expect(answer.status).toBe(200)
  }
  // the three events' first attempts, recorded in the outbox (the log is told of each once it is recorded):
  // polled, as nothing outside the service is told
  while (deliveriesOf(service.dataDirectory, "partner-a").attempts < 3) await nextTurn()
  await service.logged((line) => line["msg"] === FAILED)
  // the first round's three failures are one line; the next is a minute away
  expect(failureLines()).toEqual([
    expect.objectContaining({
      level: 40,
      partner_id: "partner-a",
      endpoint: url,
      error: expect.stringContaining("ECONNREFUSED"),
      failures: 1
    })
  ])
})
