/**
 * A clock that runs with real time but can be moved forward: the service's
 * injectable clock, so end-to-end tests can see a quote expire without waiting
 * 30 days.
 */
import { Clock, Effect } from "effect"

/** A clock to provide to the service (`ServiceOptions.clock`) and the handle that moves it. */
export interface AdjustableClock {
  readonly clock: Clock.Clock
  /** Moves the clock's time forward (or back, with a negative amount). */
  readonly adjust: (millis: number) => void
}

/** A clock at real time, until moved: for an end-to-end test that must see a quote expire or a retry fall due. */
export const makeAdjustableClock = (): AdjustableClock => {
  const live = Clock.Clock.defaultValue()
  let offset = 0
  const millis = () => live.currentTimeMillisUnsafe() + offset
  const nanos = () => live.currentTimeNanosUnsafe() + BigInt(offset) * 1_000_000n
  return {
    clock: {
      currentTimeMillisUnsafe: millis,
      currentTimeMillis: Effect.sync(millis),
      currentTimeNanosUnsafe: nanos,
      currentTimeNanos: Effect.sync(nanos),
      // elapsed time is measured, not adjusted: moving the clock makes no time pass
      monotonicTimeNanosUnsafe: () => live.monotonicTimeNanosUnsafe(),
      monotonicTimeNanos: live.monotonicTimeNanos,
      sleep: (duration) => live.sleep(duration)
    },
    adjust: (amount) => {
      offset += amount
    }
  }
}
