/**
 * Runs a request's effect: synchronously when it never waits (offers,
 * reads on SQLite), so no promise is made for it; when it does wait, the very
 * fiber that started is awaited — nothing runs twice.
 */
import { Cause, Exit, Fiber, type ManagedRuntime, Option, Runtime } from "effect"
import type { Effect } from "effect"

export const runEffect = <A, E, R>(
  runtime: ManagedRuntime.ManagedRuntime<R, unknown>,
  effect: Effect.Effect<A, E, R>
): Exit.Exit<A, E> | Promise<Exit.Exit<A, E>> => {
  // the runtime's layers were built at start-up, so no layer error can surface here
  const exit = runtime.runSyncExit(effect) as Exit.Exit<A, E>
  if (Exit.isSuccess(exit)) return exit
  const defect = Cause.dieOption(exit.cause)
  if (Option.isSome(defect) && Runtime.isAsyncFiberException(defect.value)) {
    return runtime.runPromise(Fiber.await(defect.value.fiber as Fiber.RuntimeFiber<A, E>)) as Promise<Exit.Exit<A, E>>
  }
  return exit
}
