/**
 * Deadlines of one length (a request's time budget) on one Node timer. A
 * setTimeout and its clearTimeout cost ~1.4 µs a wait and a request waits
 * twice (its caller's authentication, its operation): with every deadline as
 * long as the others they expire in the order they were set, so a list in
 * that order and a timer for its head do the same for a link and an unlink.
 */

/** A deadline set and not yet expired or cleared; `clear` forgets it (again is harmless). */
export interface Deadline {
  readonly clear: () => void
}

export interface Deadlines {
  /** Calls `expire` once `millis` have passed, unless cleared first. */
  readonly set: (expire: () => void) => Deadline
}

/** The clock and timer the list runs on: Node's, or a test's. */
export interface DeadlineClock {
  /** Milliseconds on a clock that never goes back. */
  readonly now: () => number
  /** Calls `fire` after about `millis`; the timer does not keep the process alive. */
  readonly after: (millis: number, fire: () => void) => void
}

const nodeClock: DeadlineClock = {
  now: () => performance.now(),
  after: (millis, fire) => void setTimeout(fire, millis).unref()
}

const MAX_TIMER_MILLIS = 2_147_483_647

interface Entry extends Deadline {
  readonly at: number
  readonly expire: () => void
  previous: Entry | undefined
  next: Entry | undefined
  linked: boolean
}

export const makeDeadlines = (millis: number, clock: DeadlineClock = nodeClock): Deadlines => {
  let head: Entry | undefined
  let tail: Entry | undefined
  // the timer is never cleared: an armed timer that finds the list empty, or its head not due, costs one wake-up
  let armed = false

  const unlink = (entry: Entry) => {
    if (!entry.linked) return
    entry.linked = false
    if (entry.previous === undefined) head = entry.next
    else entry.previous.next = entry.next
    if (entry.next === undefined) tail = entry.previous
    else entry.next.previous = entry.previous
    entry.previous = entry.next = undefined
  }

  const arm = (at: number) => {
    armed = true
    // a timer fires no sooner than asked, in whole milliseconds, and at most 2^31 − 1 ms ahead (Node's limit)
    clock.after(Math.min(MAX_TIMER_MILLIS, Math.max(1, Math.ceil(at - clock.now()))), fire)
  }

  const fire = () => {
    // `armed` stays set while the due ones expire: one that sets another (its interruption resumes what
    // waits) must not arm the timer for that later one ahead of the list's head
    const now = clock.now()
    while (head !== undefined && head.at <= now) {
      const due = head
      unlink(due)
      try {
        due.expire()
      } catch (thrown) {
        // the others still expire; what one expiry throws is its own, thrown again as an uncaught exception
        queueMicrotask(() => {
          throw thrown
        })
      }
    }
    armed = false
    if (head !== undefined) arm(head.at)
  }

  return {
    set: (expire) => {
      const entry: Entry = {
        at: clock.now() + millis,
        expire,
        previous: tail,
        next: undefined,
        linked: true,
        clear: () => unlink(entry)
      }
      if (tail === undefined) head = entry
      else tail.next = entry
      tail = entry
      if (!armed) arm(entry.at)
      return entry
    }
  }
}
