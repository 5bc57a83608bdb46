/**
 * One rate limit across instances: with KASKO_REDIS_URL, two services count a
 * subscription key's requests together, so the 200s of both within a window
 * never exceed the limit (without Redis each instance counts alone and lets
 * the limit through twice: the control). While Redis does not answer, an
 * instance still serves, counting alone.
 *
 * Redis runs on 127.0.0.1:6379 on the project's machines and in CI; on a
 * laptop without it the shared-limit tests skip, saying why (never in CI).
 */
import { createConnection } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { burst, count, startInstances as startServices } from "./RateLimitBurst.js"
import type { TestService } from "./support.js"

const REDIS_URL = "redis://127.0.0.1:6379"
const LIMIT = 10

const redisAnswers = await new Promise<boolean>((resolve) => {
  const socket = createConnection({ host: "127.0.0.1", port: 6379 })
  socket.setTimeout(1_000)
  socket.once("connect", () => {
    socket.end()
    resolve(true)
  })
  socket.once("error", () => resolve(false))
  socket.once("timeout", () => {
    socket.destroy()
    resolve(false)
  })
})
if (!redisAnswers) {
  if (process.env["CI"] === "true") throw new Error("CI runs Redis on 127.0.0.1:6379, and nothing answers there")
  console.warn("SharedRateLimit: no Redis answers on 127.0.0.1:6379, so the shared-limit tests are skipped here")
}

const started: Array<TestService> = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((service) => service.stop()))
})
const startInstances = (count: number, environment: Record<string, string>) =>
  startServices(count, { KASKO_RATE_LIMIT_PER_MINUTE: String(LIMIT), ...environment }, started)

describe.skipIf(!redisAnswers)("the rate limit in Redis", () => {
  it("holds for two instances together: of 30 requests in one window, the limit's 10 pass", async () => {
    const statuses = await burst(await startInstances(2, { KASKO_REDIS_URL: REDIS_URL }), 30)
    expect(count(statuses, 200)).toBe(LIMIT)
    expect(count(statuses, 429)).toBe(30 - LIMIT)
  })
})

describe("the rate limit without Redis", () => {
  it("is counted per instance: two instances let twice the limit through (what Redis prevents)", async () => {
    const statuses = await burst(await startInstances(2, {}), 30)
    expect(count(statuses, 200)).toBe(2 * LIMIT)
  })

  it("is counted by the instance alone while Redis does not answer, and requests are still served", async () => {
    // nothing listens on port 1
    const [instance] = await startInstances(1, { KASKO_REDIS_URL: "redis://127.0.0.1:1" })
    const statuses = await burst([instance!], 15)
    expect(count(statuses, 200)).toBe(LIMIT)
    expect(count(statuses, 429)).toBe(5)
    expect(instance!.logLines.some((line) => String(line["msg"]).startsWith("Redis does not answer"))).toBe(true)
  })
})
