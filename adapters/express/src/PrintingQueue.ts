/**
 * Quote documents are printed in turn. pdfkit lays a document out synchronously, on the event loop (~7 ms a quote's
 * document), so a burst of them would hold every other request — offers, quotes — behind it. At most `atOnce`
 * requests print at a time, each after a turn of the event loop (so what arrived meanwhile is read between two
 * documents); up to `waiting` more wait their turn in order; past that the queue is full and the request is
 * refused with 503. One partner's share of the queue is bounded by the per-key document limit (429), so a full
 * queue means the service as a whole is asked for more documents than it prints.
 */
import { Data, Effect, Semaphore } from "effect"

/** The queue was full: `waiting` requests were waiting their turn already. */
export class PrintingQueueFull extends Data.TaggedError("PrintingQueueFull")<{ readonly waiting: number }> {}

export interface PrintingQueue {
  /** Runs `effect` in its turn, or fails with PrintingQueueFull at once when the queue is full. */
  readonly inTurn: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | PrintingQueueFull, R>
}

/** A turn of the event loop: the I/O that arrived meanwhile is read before the next document is laid out. */
const nextTurn: Effect.Effect<void> = Effect.callback<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

export const makePrintingQueue = (options: { readonly atOnce: number; readonly waiting: number }): PrintingQueue => {
  const turns = Semaphore.makeUnsafe(options.atOnce)
  // printing and waiting together: counted here, as the semaphore does not say how many wait
  let admitted = 0
  return {
    inTurn: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.suspend((): Effect.Effect<A, E | PrintingQueueFull, R> => {
        if (admitted >= options.atOnce + options.waiting)
          return Effect.fail(new PrintingQueueFull({ waiting: admitted - options.atOnce }))
        admitted++
        return Effect.ensuring(
          turns.withPermits(1)(Effect.andThen(nextTurn, effect)),
          Effect.sync(() => {
            admitted--
          })
        )
      })
  }
}
