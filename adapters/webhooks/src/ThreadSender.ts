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

export interface AttemptMessage {
  readonly id: number
  readonly delivery: EventOutbox.ClaimedDelivery
  readonly at: number
}

export interface OutcomeMessage {
  readonly id: number
  readonly outcome: SendOutcome
}

export interface ThreadSender {
  readonly send: (delivery: EventOutbox.ClaimedDelivery, at: number) => Promise<SendOutcome>
  /** Stops the thread for good; attempts under way fail, and so do later ones. */
  readonly close: () => Promise<void>
}

const THREAD_FILE = new URL("./SendingThread.js", import.meta.url)

export const makeThreadSender = (options: SenderOptions): ThreadSender => {
  const waiting = new Map<number, (outcome: SendOutcome) => void>()
  let nextId = 0
  let thread: { readonly worker: Worker; readonly post: (attempt: AttemptMessage) => void } | undefined

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
    return { worker, post: coalesced<AttemptMessage>((attempts) => worker.postMessage(attempts)) }
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
