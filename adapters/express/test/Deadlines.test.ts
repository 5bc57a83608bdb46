/**
 * Deadlines on one timer: each expires once its length has passed since it was set, not before, in the order they
 * were set; a cleared one never expires; the timer is re-armed for what is left, and armed again after the list
 * emptied.
 */
import { describe, expect, it, vi } from "vitest"
import { type DeadlineClock, makeDeadlines } from "../src/Deadlines.js"

/** A clock moved by hand, whose timers fire when it passes them. */
const manualClock = () => {
  let now = 0
  let timers: Array<{ readonly at: number; readonly fire: () => void }> = []
  const clock: DeadlineClock = {
    now: () => now,
    after: (millis, fire) => void timers.push({ at: now + millis, fire })
  }
  const advanceTo = (to: number) => {
    for (;;) {
      const next = timers.filter((timer) => timer.at <= to).sort((a, b) => a.at - b.at)[0]
      if (next === undefined) break
      timers = timers.filter((timer) => timer !== next)
      now = next.at
      next.fire()
    }
    now = to
  }
  return { clock, advanceTo, armed: () => timers.length }
}

describe("deadlines on one timer", () => {
  it("expires each deadline once its length has passed, in order, and never a cleared one", () => {
    const { clock, advanceTo } = manualClock()
    const deadlines = makeDeadlines(100, clock)
    const expired: Array<string> = []
    deadlines.set(() => expired.push(`a at ${clock.now()}`))
    advanceTo(30)
    const b = deadlines.set(() => expired.push(`b at ${clock.now()}`))
    advanceTo(60)
    deadlines.set(() => expired.push(`c at ${clock.now()}`))
    b.clear()
    b.clear()
    advanceTo(99)
    expect(expired).toEqual([])
    advanceTo(1_000)
    expect(expired).toEqual(["a at 100", "c at 160"])
  })

  it("arms one timer at a time, and again for a deadline set after the list emptied", () => {
    const { clock, advanceTo, armed } = manualClock()
    const deadlines = makeDeadlines(50, clock)
    const expired: Array<number> = []
    for (let index = 0; index < 100; index++) deadlines.set(() => expired.push(index)).clear()
    expect(armed()).toBe(1)
    // the timer fires at the first deadline's time, finds nothing due, and is not armed again
    advanceTo(200)
    expect(armed()).toBe(0)
    deadlines.set(() => expired.push(clock.now()))
    expect(armed()).toBe(1)
    advanceTo(400)
    expect(expired).toEqual([250])
  })

  it("lets the deadlines after one whose expiry throws expire too, and throws that again on its own", () => {
    const { clock, advanceTo } = manualClock()
    const deadlines = makeDeadlines(10, clock)
    const expired: Array<string> = []
    const queued: Array<() => void> = []
    vi.stubGlobal("queueMicrotask", (task: () => void) => queued.push(task))
    try {
      deadlines.set(() => {
        throw new Error("an expiry's own fault")
      })
      deadlines.set(() => expired.push("second"))
      advanceTo(20)
    } finally {
      vi.unstubAllGlobals()
    }
    expect(expired).toEqual(["second"])
    expect(queued).toHaveLength(1)
    expect(queued[0]!).toThrow("an expiry's own fault")
  })
  it("keeps the earlier deadlines' time when one that expires sets another", () => {
    const { clock, advanceTo } = manualClock()
    const deadlines = makeDeadlines(100, clock)
    const expired: Array<string> = []
    deadlines.set(() => {
      expired.push(`a at ${clock.now()}`)
      deadlines.set(() => expired.push(`c at ${clock.now()}`))
    })
    advanceTo(50)
    deadlines.set(() => expired.push(`b at ${clock.now()}`))
    advanceTo(1_000)
    expect(expired).toEqual(["a at 100", "b at 150", "c at 200"])
  })

  it("asks a timer no further ahead than Node's timers go", () => {
    const asked: Array<number> = []
    const deadlines = makeDeadlines(10_000_000_000, { now: () => 0, after: (millis) => void asked.push(millis) })
    deadlines.set(() => undefined)
    expect(asked).toEqual([2_147_483_647])
  })
})
