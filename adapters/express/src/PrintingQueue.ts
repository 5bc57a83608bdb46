/**
 * Quote documents are printed in turn, and in turns between partners. The renderer lays them out one at a time in
 * a thread of its own (~7 ms a quote's document, @kasko/documents), so a burst of them would have every other
 * partner's documents wait behind it. At most `atOnce` requests print at a time, each after a turn of the event loop (so what
 * arrived meanwhile is read between two documents). The others wait in a line per partner, and the lines are
 * served in rotation: a partner's document waits for at most one document of each partner ahead of it, however
 * many another has asked for. A partner may have `waitingPerPartner` documents waiting (past that its next
 * request is refused: PrintingShareTaken, answered 429), and the queue `waiting` in all (PrintingQueueFull,
 * answered 503: the service as a whole is asked for more documents than it prints).
 */
import { Data, Effect } from "effect"

/** The queue was full: `waiting` requests were waiting their turn already. */
export class PrintingQueueFull extends Data.TaggedError("PrintingQueueFull")<{ readonly waiting: number }> {}

/** The partner had its share of the queue waiting already: `waiting` of its documents. */
export class PrintingShareTaken extends Data.TaggedError("PrintingShareTaken")<{ readonly waiting: number }> {}

export interface PrintingQueue {
  /**
   * Runs `effect` in its turn among `partnerId`'s documents and the other partners', or fails at once when the
   * partner's share or the queue is full.
   */
  readonly inTurn: <A, E, R>(
    partnerId: string,
    effect: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | PrintingQueueFull | PrintingShareTaken, R>
}

export interface PrintingLimits {
  /** Documents printed at once. */
  readonly atOnce: number
  /** Documents waiting their turn, in all. */
  readonly waiting: number
  /** Documents one partner may have waiting. */
  readonly waitingPerPartner: number
}

/** A turn of the event loop: the I/O that arrived meanwhile is read before the next document is laid out. */
const nextTurn: Effect.Effect<void> = Effect.callback<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/** A document waiting its turn: how to wake it once it may be first with a place free. */
interface Waiter {
  resume: (() => void) | undefined
}

export const makePrintingQueue = (limits: PrintingLimits): PrintingQueue => {
  let printing = 0
  let waitingInAll = 0
  // each partner's line of waiting documents, the lines in the order they are served: a line served goes to the
  // back. A waiter stays in its line until it takes its place (a wake-up reserves nothing), as in Effect's
  // Semaphore, so a waiter interrupted after its wake-up cannot take a place with it.
  const lines = new Map<string, Array<Waiter>>()

  const first = (): Waiter | undefined => lines.values().next().value?.[0]

  /** Wakes the first waiter when a place is free. */
  const wakeFirst = () => {
    if (printing >= limits.atOnce) return
    const waiter = first()
    const resume = waiter?.resume
    if (waiter === undefined || resume === undefined) return
    waiter.resume = undefined
    resume()
  }

  const leave = (partnerId: string, waiter: Waiter) => {
    const line = lines.get(partnerId)
    const index = line?.indexOf(waiter) ?? -1
    if (line === undefined || index === -1) return
    line.splice(index, 1)
    waitingInAll--
    if (line.length === 0) lines.delete(partnerId)
    wakeFirst()
  }

  /** Takes a place for the first waiter when one is free: its line goes to the back. Answers whether it did. */
  const takePlace = (partnerId: string, waiter: Waiter): boolean => {
    if (printing >= limits.atOnce || first() !== waiter) return false
    const line = lines.get(partnerId)!
    line.shift()
    waitingInAll--
    lines.delete(partnerId)
    if (line.length > 0) lines.set(partnerId, line)
    printing++
    wakeFirst()
    return true
  }

  const release = Effect.sync(() => {
    printing--
    wakeFirst()
  })

  return {
    inTurn: <A, E, R>(partnerId: string, effect: Effect.Effect<A, E, R>) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.suspend((): Effect.Effect<A, E | PrintingQueueFull | PrintingShareTaken, R> => {
          const print = Effect.ensuring(restore(Effect.andThen(nextTurn, effect)), release)
          if (printing < limits.atOnce && lines.size === 0) {
            printing++
            return print
          }
          const partnerWaiting = lines.get(partnerId)?.length ?? 0
          if (partnerWaiting >= limits.waitingPerPartner)
            return Effect.fail(new PrintingShareTaken({ waiting: partnerWaiting }))
          if (waitingInAll >= limits.waiting) return Effect.fail(new PrintingQueueFull({ waiting: waitingInAll }))
          const waiter: Waiter = { resume: undefined }
          lines.set(partnerId, [...(lines.get(partnerId) ?? []), waiter])
          waitingInAll++
          const woken = restore(
            Effect.callback<void>((resume) => {
              waiter.resume = () => resume(Effect.void)
              wakeFirst()
            })
          ).pipe(Effect.onInterrupt(() => Effect.sync(() => leave(partnerId, waiter))))
          // the place is taken outside `restore`: once taken, the print's release is sure to follow
          const turn: Effect.Effect<void> = Effect.flatMap(woken, () =>
            takePlace(partnerId, waiter) ? Effect.void : turn
          )
          return Effect.andThen(turn, print)
        })
      )
  }
}
