/**
 * Events written on this instance wake its dispatcher: the store pokes after
 * a commit that wrote events, and the dispatcher's wait ends then rather than
 * at the next poll. A poke while the dispatcher is busy is kept for its next
 * wait: the pass under way may have fanned out before the commit.
 */
export interface Wakeups {
  /** After a commit that wrote events. Cheap: a flag and, when the dispatcher waits, one call. */
  readonly poke: () => void
  /**
   * Resolves at the next poke, or at once when poked since the last wait ended. A wait given up (`signal`
   * aborted: it lost a race) stops waiting, so the poke after it is kept for the next wait.
   */
  readonly next: (signal?: AbortSignal) => Promise<void>
}

/** The wake-ups of one instance's dispatcher: pass them to its stores (poke) and to the dispatcher (next). */
export const makeWakeups = (): Wakeups => {
  let poked = false
  let wake: (() => void) | undefined
  return {
    poke: () => {
      poked = true
      const waiting = wake
      wake = undefined
      waiting?.()
    },
    next: (signal) => {
      if (poked) {
        poked = false
        return Promise.resolve()
      }
      return new Promise((resolve) => {
        const mine = () => {
          poked = false
          resolve()
        }
        wake = mine
        signal?.addEventListener("abort", () => {
          if (wake === mine) wake = undefined
        })
      })
    }
  }
}
