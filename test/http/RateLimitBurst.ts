/**
 * Rate-limit bursts for the shared-limit suites (Redis, PostgreSQL): offers
 * for one new partner spread over services in turn. A key's window opens at
 * its first request, so a new partner's burst falls in one window.
 */
import { Examples } from "@kasko/core"
import { randomUUID } from "node:crypto"
import { asPartner, startTestService, type TestService } from "./support.js"

/** `count` services with `environment`, pushed onto `started` (for the suite to stop). */
export const startInstances = async (
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
