/**
 * The README's "Receive webhooks" states the retry timeline a receiver can
 * count on — 10 s, 20 s, 40 s … up to an hour apart, for 24 hours, then dead
 * letters; disabled after 5 days failing — and it is the core's schedule
 * (`DeliverySchedule`): a changed schedule fails here until the README says it.
 */
import { DeliverySchedule } from "@kasko/core/transport"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const README = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8")
const SECOND = 1000
const HOUR = 3600 * SECOND

/** The delay after `attempts` failed attempts, without jitter (its middle: random 0.5 spreads by a factor of 1). */
const delayAfter = (attempts: number) => {
  const next = DeliverySchedule.afterFailure(attempts, 0, 0, 0.5)
  return "retryAt" in next ? next.retryAt : Number.NaN
}

describe("README on webhook retries", () => {
  const retries = README.split("\n- ")
    .find((item) => item.startsWith("**Retries**"))
    ?.replace(/\s+/g, " ")

  it("has the paragraph", () => {
    expect(retries).toBeDefined()
  })

  it("gives the core's delays, longest delay, retry window and the time failing that disables", () => {
    expect([1, 2, 3].map(delayAfter)).toEqual([10, 20, 40].map((seconds) => seconds * SECOND))
    expect(retries).toContain("10 s, 20 s, 40 s")
    expect(delayAfter(30)).toBe(HOUR)
    expect(retries).toContain("up to an hour apart")
    // spread ±50 %: random 0 and just under 1 give half and one and a half times the delay
    expect([0, 0.999_999].map((random) => DeliverySchedule.afterFailure(1, 0, 0, random))).toEqual([
      { retryAt: 5 * SECOND },
      { retryAt: 15 * SECOND }
    ])
    expect(retries).toContain("±50 %")
    expect(DeliverySchedule.RETRY_WINDOW_MILLIS).toBe(24 * HOUR)
    expect(DeliverySchedule.afterFailure(5, 0, 24 * HOUR, 0.5)).toEqual({ deadLettered: true })
    expect(retries).toContain("for 24 hours from the first attempt")
    expect(DeliverySchedule.DISABLE_AFTER_FAILING_MILLIS).toBe(5 * 24 * HOUR)
    expect(retries).toContain("fails every attempt for 5 days")
  })
})
