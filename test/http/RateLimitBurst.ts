/**
 * Rate-limit bursts for the shared-limit suites (Redis, PostgreSQL): services
 * started one second into the same fresh minute, so a burst falls in one
 * window, and offers for one new partner spread over them in turn.
 */
import { Examples } from "@kasko/core"
import { randomUUID } from "node:crypto"
import { asPartner, startTestService, type TestService } from "./support.js"

/** `count` services with `environment`, pushed onto `started` (for the suite to stop), their clocks in one minute. */
export const startInstancesInOneWindow = async (
  count: number,
  environment: Record<string, string>,
  started: Array<TestService>
) => {
  const instances = []
  for (let index = 0; index < count; index++) {
    const instance = await startTestService({ environment })
    started.push(instance)
    instances.push(instance)
  }
  // every instance one second into the same fresh minute: the whole burst falls in one window
  const now = Date.now()
  for (const instance of instances) instance.adjustClock(60_000 - (now % 60_000) + 1_000)
  return instances
}

/** `requests` offers for one new partner, spread in turn over the instances; the statuses answered. */
export const burst = async (instances: ReadonlyArray<TestService>, requests: number) => {
  const partner = `partner-${randomUUID()}`
  const statuses: Array<number> = []
  for (let index = 0; index < requests; index++) {
    const instance = instances[index % instances.length]!
    const answer = await fetch(`${instance.url}/insurance/car/offers`, {
      method: "POST",
      headers: { "content-type": "application/json", ...asPartner(partner) },
      body: JSON.stringify(Examples.offerRequest())
    })
    await answer.arrayBuffer()
    statuses.push(answer.status)
  }
  return statuses
}

export const count = (statuses: ReadonlyArray<number>, status: number) =>
  statuses.filter((each) => each === status).length
