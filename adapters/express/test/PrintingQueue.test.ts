/**
 * The printing queue: documents print `atOnce` at a time; the others wait in a line per partner, the lines served
 * in rotation, so a partner's document waits for at most one of each partner ahead of it. A partner past its
 * share of waiting documents is refused at once (PrintingShareTaken), as is anyone when the queue is full
 * (PrintingQueueFull); a failed or interrupted print, or a waiter interrupted, frees its place. Order is held by
 * latches: nothing here waits on the clock.
 */
import { Deferred, Effect, Exit, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { makePrintingQueue, PrintingQueueFull, PrintingShareTaken } from "../src/PrintingQueue.js"

/** A queue, and prints that record their start and end and hold until released. */
const setUp = (limits: { atOnce: number; waiting: number; waitingPerPartner: number }) => {
  const queue = makePrintingQueue(limits)
  const started: Array<string> = []
  let printing = 0
  let mostAtOnce = 0
  const print = (partner: string, name: string, release: Deferred.Deferred<void>) =>
    queue.inTurn(
      partner,
      Effect.gen(function* () {
        printing++
        mostAtOnce = Math.max(mostAtOnce, printing)
        started.push(name)
        yield* Deferred.await(release)
        printing--
        return name
      })
    )
  return { queue, started, print, mostAtOnce: () => mostAtOnce }
}

/** Forks prints that join the queue at once (started immediately, up to their turn). */
const forkAll = <A, E>(effects: ReadonlyArray<Effect.Effect<A, E>>) =>
  Effect.forEach(effects, (effect) => Effect.forkChild(effect, { startImmediately: true }))

describe("the printing queue", () => {
  it("serves partners in rotation: another partner's document prints next, however many one has waiting", async () => {
    const { started, print, mostAtOnce } = setUp({ atOnce: 1, waiting: 10, waitingPerPartner: 5 })
    await Effect.runPromise(
      Effect.gen(function* () {
        const releases = yield* Effect.forEach(Array.from({ length: 7 }), () => Deferred.make<void>())
        // a burst of A's five, then B's one and C's one
        const burst = yield* forkAll(
          ["a1", "a2", "a3", "a4", "a5"].map((name, index) => print("A", name, releases[index]!))
        )
        const others = yield* forkAll([print("B", "b1", releases[5]!), print("C", "c1", releases[6]!)])
        for (const release of releases) yield* Deferred.succeed(release, undefined)
        yield* Fiber.joinAll([...burst, ...others])
      })
    )
    // a1 was printing; then each line in turn: A's next, B's, C's, then A's rest
    expect(started).toEqual(["a1", "a2", "b1", "c1", "a3", "a4", "a5"])
    expect(mostAtOnce()).toBe(1)
  })

  it("refuses a partner past its share at once, leaving room for the others, and refuses anyone when full", async () => {
    const { print } = setUp({ atOnce: 1, waiting: 3, waitingPerPartner: 2 })
    await Effect.runPromise(
      Effect.gen(function* () {
        const release = yield* Deferred.make<void>()
        const admitted = yield* forkAll([
          print("A", "a1", release),
          print("A", "a2", release),
          print("A", "a3", release)
        ])
        const overShare = yield* Effect.flip(print("A", "a4", release))
        expect(overShare).toBeInstanceOf(PrintingShareTaken)
        expect((overShare as PrintingShareTaken).waiting).toBe(2)
        // B finds room: A's share is its own
        const b = yield* forkAll([print("B", "b1", release)])
        const full = yield* Effect.flip(print("C", "c1", release))
        expect(full).toBeInstanceOf(PrintingQueueFull)
        expect((full as PrintingQueueFull).waiting).toBe(3)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.joinAll([...admitted, ...b])
        // room again
        expect(yield* print("C", "c2", release)).toBe("c2")
      })
    )
  })

  it("frees the place of a print that failed or was interrupted, and of a waiter interrupted in line", async () => {
    const { queue, print, started } = setUp({ atOnce: 1, waiting: 2, waitingPerPartner: 2 })
    const failed = await Effect.runPromiseExit(queue.inTurn("A", Effect.fail("broken")))
    expect(Exit.isFailure(failed)).toBe(true)
    const printed = await Effect.runPromise(
      Effect.gen(function* () {
        const release = yield* Deferred.make<void>()
        const [hanging] = yield* forkAll([queue.inTurn("A", Effect.never)])
        const [waiting] = yield* forkAll([print("B", "b1", release)])
        // the waiter leaves its line: the next one in takes its place behind the hanging print
        yield* Fiber.interrupt(waiting!)
        const [next] = yield* forkAll([print("C", "c1", release)])
        // the hanging print ends: its place passes on
        yield* Fiber.interrupt(hanging!)
        yield* Deferred.succeed(release, undefined)
        return yield* Fiber.join(next!)
      })
    )
    expect(printed).toBe("c1")
    expect(started).toEqual(["c1"])
  })
})
