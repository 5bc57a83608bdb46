/**
 * Gathers what is pushed within one turn of the event loop and hands it on as
 * one array: a round's attempts cross between threads in one message, not one
 * each.
 */
export const coalesced = <A>(flush: (items: ReadonlyArray<A>) => void): ((item: A) => void) => {
  let pending: Array<A> = []
  return (item) => {
    if (pending.length === 0)
      queueMicrotask(() => {
        const items = pending
        pending = []
        flush(items)
      })
    pending.push(item)
  }
}
