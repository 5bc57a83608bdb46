/**
 * A sender whose HTTP work runs on a thread of its own: signing, connecting,
 * writing and reading webhook attempts cost the service's event loop — the
 * one its requests run on — nothing but a message each way per round. The
 * thread starts on the first attempt; if it dies, the attempts it held fail
 * (the dispatcher retries them on its schedule) and the next attempt starts
 * another.
 */
import type { EventOutbox } from "@kasko/core"
import { Worker } from "node:worker_threads"
import { coalesced } from "./Coalesced.js"
import type { SendOutcome, SenderOptions } from "./WebhookSender.js"

interface Attempt {
  readonly id: number
  readonly delivery: EventOutbox.ClaimedDelivery
  readonly at: number
}

/**
 * A round's attempts as they cross to the thread: what an attempt needs (its id and time, the endpoint, the
 * secret, the event's id and payload), ATTEMPT_FIELDS slots each in one flat array. A flat array of strings
 * and numbers is copied at about half the cost of the claimed deliveries as objects (each object's keys
 * are copied with it).
 */
export type AttemptsMessage = ReadonlyArray<string | number>

export const ATTEMPT_FIELDS = 6

const attemptsMessage = (attempts: ReadonlyArray<Attempt>): AttemptsMessage => {
  const message = new Array<string | number>(attempts.length * ATTEMPT_FIELDS)
  let slot = 0
  for (const { id, at, delivery } of attempts) {
    message[slot++] = id
    message[slot++] = at
    message[slot++] = delivery.url
    message[slot++] = delivery.secret
    message[slot++] = delivery.event.event_id
    message[slot++] = delivery.event.payload
  }
  return message
}

export interface OutcomeMessage {
  readonly id: number
  readonly outcome: SendOutcome
}

/** Sends webhook attempts on the sending thread, and stops it. */
export interface ThreadSender {
  readonly send: (delivery: EventOutbox.ClaimedDelivery, at: number) => Promise<SendOutcome>
  /** Stops the thread for good; attempts under way fail, and so do later ones. */
  readonly close: () => Promise<void>
}

const THREAD_FILE = new URL("./SendingThread.js", import.meta.url)

/** A sender whose attempts run on a thread of its own, started with the first attempt: what the dispatcher sends with. */
export const makeThreadSender = (options: SenderOptions): ThreadSender => {
  const waiting = new Map<number, (outcome: SendOutcome) => void>()
  let nextId = 0
  let thread: { readonly worker: Worker; readonly post: (attempt: Attempt) => void } | undefined

  const failAll = (error: string) => {
    for (const settle of waiting.values()) settle({ delivered: false, error })
    waiting.clear()
  }
  let closed = false
  const start = () => {
    const worker = new Worker(THREAD_FILE, { workerData: options })
    worker.on("message", (outcomes: ReadonlyArray<OutcomeMessage>) => {
      for (const { id, outcome } of outcomes) {
        waiting.get(id)?.(outcome)
        waiting.delete(id)
      }
    })
    worker.on("error", (error) => failAll(`the sending thread failed: ${error.message}`))
    worker.on("exit", (code) => {
      if (thread?.worker === worker) thread = undefined
      failAll(`the sending thread stopped (exit code ${code})`)
    })
    // the service's stop, not this thread, decides when the process ends. After the listeners: adding a
    // "message" listener refs the thread's port again, and an unref made before it would not hold
    worker.unref()
    return { worker, post: coalesced<Attempt>((attempts) => worker.postMessage(attemptsMessage(attempts))) }
  }

  return {
    send: (delivery, at) =>
      new Promise((resolve) => {
        // an attempt that comes after the stop (a round still finishing) starts no thread nobody would stop
        if (closed) return resolve({ delivered: false, error: "the sender is closed" })
        thread ??= start()
        const id = nextId++
        waiting.set(id, resolve)
        thread.post({ id, delivery, at })
      }),
    close: async () => {
      closed = true
      const current = thread
      thread = undefined
      if (current !== undefined) await current.worker.terminate()
    }
  }
}
