/** When a failed webhook delivery is tried again: Retry-After honoured, up to the longest delay, an hour. */
import { describe, expect, it } from "vitest"
import { afterFailure, retryAfterMillisOf } from "../src/events/DeliverySchedule.js"

const NOW = Date.parse("2026-03-02T09:00:00Z")
const HOUR = 60 * 60 * 1000

describe("a receiver's Retry-After", () => {
  it("reads delay-seconds and an HTTP date, and nothing else", () => {
    expect(retryAfterMillisOf("120", NOW)).toBe(120_000)
    expect(retryAfterMillisOf(" 5 ", NOW)).toBe(5_000)
    expect(retryAfterMillisOf(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000)
    expect(retryAfterMillisOf(undefined, NOW)).toBe(0)
    expect(retryAfterMillisOf("soon", NOW)).toBe(0)
    expect(retryAfterMillisOf("-5", NOW)).toBe(0)
  })

  it.each([
    ["eleven digits", "99999999999"],
    ["twelve digits", "999999999999"],
    ["400 digits", "9".repeat(400)]
  ])("takes delay-seconds of %s as the longest wait, never as none", (_length, header) => {
    expect(retryAfterMillisOf(header, NOW)).toBeGreaterThanOrEqual(HOUR)
    // tried again an hour after the failure: the cap, not the backoff's 10 s
    expect(afterFailure(1, NOW, NOW, 0.5, retryAfterMillisOf(header, NOW))).toEqual({ retryAt: NOW + HOUR })
  })
})
