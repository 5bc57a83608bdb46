import { RateLimiter, StorageUnavailable } from "@kasko/core"
import { Effect } from "effect"
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible"
import { afterEach, describe, expect, it, vi } from "vitest"
import { insurance, makeRateLimiter } from "../src/MemoryRateLimiter.js"

const MINUTE = 60_000
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

afterEach(() => {
  vi.useRealTimers()
})

describe("the in-memory RateLimiter", () => {
  it("counts a key's requests in its window, past the limit, and each key apart", async () => {
    const limiter = makeRateLimiter()
    const used = []
    for (let request = 0; request < 4; request++) used.push((await run(limiter.hit("a", 3, MINUTE))).used)
    expect(used).toEqual([1, 2, 3, 4])
    expect(RateLimiter.isExceeded(await run(limiter.peek("a", 3, MINUTE)))).toBe(true)
    expect(await run(limiter.peek("b", 3, MINUTE))).toMatchObject({ limit: 3, used: 0 })
    expect((await run(limiter.hit("b", 3, MINUTE))).used).toBe(1)
  })

  it("answers when the window ends, and counts from zero after it", async () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-24T09:00:00Z") })
    const limiter = makeRateLimiter()
    const first = await run(limiter.hit("a", 1, MINUTE))
    expect(first.resetsAt).toBe(Date.parse("2026-11-24T09:01:00Z"))
    vi.advanceTimersByTime(30_000)
    const second = await run(limiter.hit("a", 1, MINUTE))
    expect(second).toMatchObject({ used: 2, resetsAt: Date.parse("2026-11-24T09:01:00Z") })
    vi.advanceTimersByTime(30_001)
    expect((await run(limiter.hit("a", 1, MINUTE))).used).toBe(1)
  })

  it("peeks without counting", async () => {
    const limiter = makeRateLimiter()
    await run(limiter.hit("a", 5, MINUTE))
    await run(limiter.peek("a", 5, MINUTE))
    expect((await run(limiter.peek("a", 5, MINUTE))).used).toBe(1)
  })
})

describe("RateLimiter.fromLimiters", () => {
  it("is StorageUnavailable when the store fails and nothing insures it", async () => {
    const failing = RateLimiter.fromLimiters(() => ({
      consume: () => Promise.reject(new Error("connection refused")),
      get: () => Promise.reject(new Error("connection refused"))
    }))
    const refused = await run(Effect.flip(failing.hit("a", 1, MINUTE)))
    expect(refused).toBeInstanceOf(StorageUnavailable)
    expect(refused.reason).toContain("connection refused")
    await expect(run(Effect.flip(failing.peek("a", 1, MINUTE)))).resolves.toBeInstanceOf(StorageUnavailable)
  })

  it("reads a limiter's rejection over the limit as the window, not as a failure", async () => {
    const over = RateLimiter.fromLimiters(() => ({
      consume: () => Promise.reject(new RateLimiterRes(0, 1_500, 7)),
      get: () => Promise.resolve(null)
    }))
    expect(await run(over.hit("a", 6, MINUTE))).toMatchObject({ limit: 6, used: 7 })
  })
})

describe("MemoryRateLimiter.insurance", () => {
  it("counts in memory and tells each time it does", async () => {
    const told: Array<string> = []
    const insured = insurance(() => told.push("counted alone"))(2, MINUTE)
    expect(insured).toBeInstanceOf(RateLimiterMemory)
    await insured.consume("a")
    await expect(insured.consume("a")).resolves.toMatchObject({ consumedPoints: 2 })
    await expect(insured.consume("a")).rejects.toMatchObject({ consumedPoints: 3 })
    expect(await insured.get("a")).toMatchObject({ consumedPoints: 3 })
    expect(told).toHaveLength(4)
  })
})
