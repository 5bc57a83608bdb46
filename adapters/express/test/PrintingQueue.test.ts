/**
 * The printing queue: documents print `atOnce` at a time, in the order they came; up to `waiting` more wait; one
 * more is refused at once (PrintingQueueFull), and is let in again once a place is free — a failed or interrupted
 * print frees its place too.
 */
import { Deferred, Effect, Exit, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { makePrintingQueue, PrintingQueueFull } from "../src/PrintingQueue.js"

describe("the printing queue", () => {
  it("prints one at a time in order, keeps two waiting, refuses a fourth at once, and lets it in once there is room", async () => {
    const queue = makePrintingQueue({ atOnce: 1, waiting: 2 })
    const started: Array<number> = []
    let printing = 0
    let mostAtOnce = 0
    const program = Effect.gen(function* () {
      const releases = yield* Effect.all([Deferred.make<void>(), Deferred.make<void>(), Deferred.make<void>()])
      const firstStarted = yield* Deferred.make<void>()
      const print = (index: number) =>
        queue.inTurn(
          Effect.gen(function* () {
            printing++
            mostAtOnce = Math.max(mostAtOnce, printing)
            started.push(index)
            yield* Deferred.succeed(firstStarted, undefined)
            yield* Deferred.await(releases[index]!)
            printing--
            return index
          })
        )
      const fibers = []
      // each joins the queue as it is forked (started at once, up to its turn)
      for (const index of [0, 1, 2]) fibers.push(yield* Effect.forkChild(print(index), { startImmediately: true }))
      yield* Deferred.await(firstStarted)
      const refused = yield* Effect.flip(queue.inTurn(Effect.succeed("fourth")))
      expect(refused).toBeInstanceOf(PrintingQueueFull)
      expect(refused.waiting).toBe(2)
      expect(started).toEqual([0])
      yield* Deferred.succeed(releases[0]!, undefined)
      expect(yield* Fiber.join(fibers[0]!)).toBe(0)
      // a place is free: the next one in is admitted, behind the two waiting
      const fourth = yield* Effect.forkChild(queue.inTurn(Effect.sync(() => started.push(3))))
      yield* Deferred.succeed(releases[1]!, undefined)
      yield* Deferred.succeed(releases[2]!, undefined)
      expect(yield* Fiber.join(fibers[1]!)).toBe(1)
      expect(yield* Fiber.join(fibers[2]!)).toBe(2)
      yield* Fiber.join(fourth)
    })
    await Effect.runPromise(program)
    expect(started).toEqual([0, 1, 2, 3])
    expect(mostAtOnce).toBe(1)
  })

  it("frees the place of a print that failed or was interrupted", async () => {
    const queue = makePrintingQueue({ atOnce: 1, waiting: 0 })
    const failed = await Effect.runPromiseExit(queue.inTurn(Effect.fail("broken")))
    expect(Exit.isFailure(failed)).toBe(true)
    const program = Effect.gen(function* () {
      const hanging = yield* Effect.forkChild(queue.inTurn(Effect.never), { startImmediately: true })
      expect(yield* Effect.flip(queue.inTurn(Effect.succeed(1)))).toBeInstanceOf(PrintingQueueFull)
      yield* Fiber.interrupt(hanging)
      return yield* queue.inTurn(Effect.succeed("printed"))
    })
    expect(await Effect.runPromise(program)).toBe("printed")
  })
})
