/** A scrape's cost is bounded however often scrapers ask: the exposition is made at most once a second. */
import { expect, it } from "vitest"
import { cachedExposition } from "../src/MetricsListener.js"

it("makes the exposition once for the scrapes of a second, again after it, and again at once after a failure", async () => {
  let made = 0
  let failing = false
  const registry = {
    metrics: async () => {
      made++
      if (failing) throw new Error("a collector failed")
      return `exposition ${made}`
    }
  }
  // the test's clock: time passes only when the test moves it
  let now = 1_000_000
  const exposition = cachedExposition(registry, 200, () => now)
  const first = await Promise.all(Array.from({ length: 8 }, () => exposition()))
  expect(first).toEqual(Array(8).fill("exposition 1"))
  now += 199
  expect(await exposition()).toBe("exposition 1")
  now += 1
  expect(await exposition()).toBe("exposition 2")
  now += 200
  failing = true
  await expect(exposition()).rejects.toThrow("a collector failed")
  failing = false
  expect(await exposition()).toBe("exposition 4")
  expect(made).toBe(4)
})
