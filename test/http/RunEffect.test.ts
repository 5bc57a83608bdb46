import { runEffect } from "@kasko/express"
import { Effect, Exit, ManagedRuntime, Layer } from "effect"
import { afterAll, describe, expect, it } from "vitest"

const runtime = ManagedRuntime.make(Layer.empty)
afterAll(() => runtime.dispose())

describe("runEffect", () => {
  it("answers a synchronous effect synchronously, with no promise", () => {
    const exit = runEffect(runtime, Effect.succeed(42))
    expect(exit).toEqual(Exit.succeed(42))
    expect(runEffect(runtime, Effect.fail("no"))).toEqual(Exit.fail("no"))
  })

  it("awaits an effect that waits, running it exactly once", async () => {
    let runs = 0
    const waits = Effect.sync(() => runs++).pipe(Effect.zipRight(Effect.sleep("5 millis")), Effect.as("done"))
    const outcome = runEffect(runtime, waits)
    expect(outcome).toBeInstanceOf(Promise)
    expect(await outcome).toEqual(Exit.succeed("done"))
    expect(runs).toBe(1)
  })
})
