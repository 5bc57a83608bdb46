/** The dispatcher's wake-ups: a poke ends the wait under way, or the next one; a wait given up keeps no poke. */
import { expect, it } from "vitest"
import { makeWakeups } from "../src/Wakeups.js"

const settledWithin = async (promise: Promise<void>, millis: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), millis))])

it("ends a wait at the poke, and keeps a poke made while nobody waits for the next wait", async () => {
  const wakeups = makeWakeups()
  const waiting = wakeups.next()
  expect(await settledWithin(waiting, 20)).toBe(false)
  wakeups.poke()
  expect(await settledWithin(waiting, 20)).toBe(true)
  // consumed: the next wait waits
  expect(await settledWithin(wakeups.next(), 20)).toBe(false)
  wakeups.poke()
  wakeups.poke()
  expect(await settledWithin(wakeups.next(), 20)).toBe(true)
})

it("keeps a poke that comes after a wait was given up (it lost a race) for the next wait", async () => {
  const wakeups = makeWakeups()
  const givenUp = new AbortController()
  void wakeups.next(givenUp.signal)
  givenUp.abort()
  wakeups.poke()
  expect(await settledWithin(wakeups.next(), 20)).toBe(true)
})
