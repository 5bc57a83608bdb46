/** Test support: a fixed "now", request builders, and running core programs on a TestClock. */
import { Effect, Exit, Layer } from "effect"
import { TestClock, TestConsole } from "effect/testing"
import * as TariffBook from "../src/ports/TariffBook.js"

/** The instant tests price at unless they move the clock: a Monday in 2026. */
export const NOW = "2026-03-02T09:00:00.000Z"
export const NOW_MILLIS = Date.parse(NOW)

export { offerRequest, quoteRequest, standardParameters, type ParameterValues as Parameters } from "../src/Examples.js"

/** What v3's TestContext gave the tests that use it: a test clock (and a test console). */
const testServices = Layer.mergeAll(TestConsole.layer, TestClock.layer())

/** Runs a program with the test clock set to `at`, giving its Exit. */
export const runExitAt = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  layer: Layer.Layer<R>,
  at: number = NOW_MILLIS
): Promise<Exit.Exit<A, E>> =>
  Effect.runPromiseExit(
    Effect.gen(function* () {
      yield* TestClock.setTime(at)
      return yield* effect
    }).pipe(Effect.provide(layer), Effect.provide(testServices))
  )

/** Runs a program at `at` that must succeed. */
export const runAt = async <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  layer: Layer.Layer<R>,
  at: number = NOW_MILLIS
): Promise<A> => {
  const exit = await runExitAt(effect, layer, at)
  if (Exit.isSuccess(exit)) return exit.value
  throw new Error(`expected success, got ${JSON.stringify(exit.cause)}`)
}

/** Runs a program at `at` that must fail, giving its error. */
export const failureAt = async <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  layer: Layer.Layer<R>,
  at: number = NOW_MILLIS
): Promise<E> => {
  const exit = await runExitAt(effect, layer, at)
  if (Exit.isFailure(exit)) {
    const [reason, ...others] = exit.cause.reasons
    if (reason?._tag === "Fail" && others.length === 0) return reason.error
  }
  throw new Error(`expected a failure, got ${JSON.stringify(exit)}`)
}

export const tariffs = TariffBook.shipped
