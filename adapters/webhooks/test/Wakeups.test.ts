/** The dispatcher's wake-ups: a poke ends the wait under way, or the next one; a wait given up keeps no poke. */
import { setImmediate as nextTurn } from "node:timers/promises"
import { expect, it } from "vitest"
import { makeWakeups } from "../src/Wakeups.js"

/** Whether the promise has settled by the next turn of the event loop: every callback queued before has run. */
const settledByNextTurn = async (promise: Promise<void>) => {
  let settled = false
  void promise.then(() => {
    settled = true
  })
  await nextTurn()
  return settled
}

it("ends a wait at the poke, and keeps a poke made while nobody waits for the next wait", async () => {
  const wakeups = makeWakeups()
  const waiting = wakeups.next()
  expect(await settledByNextTurn(waiting)).toBe(false)
  wakeups.poke()
  expect(await settledByNextTurn(waiting)).toBe(true)
  // consumed: the next wait waits
  expect(await settledByNextTurn(wakeups.next())).toBe(false)
  wakeups.poke()
  wakeups.poke()
  expect(await settledByNextTurn(wakeups.next())).toBe(true)
})

it("keeps a poke that comes after a wait was given up (it lost a race) for the next wait", async () => {
  const wakeups = makeWakeups()
  const givenUp = new AbortController()
  void wakeups.next(givenUp.signal)
  givenUp.abort()
  wakeups.poke()
  expect(await settledByNextTurn(wakeups.next())).toBe(true)
})
