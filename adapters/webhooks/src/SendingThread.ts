/**
 * The body of the sending thread (see ThreadSender): takes batches of
 * attempts from the service's thread, makes them with the HTTP sender and
 * answers their outcomes, batched the same way.
 */
import { parentPort, workerData } from "node:worker_threads"
import { coalesced } from "./Coalesced.js"
import { ATTEMPT_FIELDS, type AttemptsMessage, type OutcomeMessage } from "./ThreadSender.js"
import { type SenderOptions, send } from "./WebhookSender.js"

const port = parentPort!
const options = workerData as SenderOptions
const answer = coalesced<OutcomeMessage>((outcomes) => port.postMessage(outcomes))

port.on("message", (attempts: AttemptsMessage) => {
  for (let slot = 0; slot < attempts.length; slot += ATTEMPT_FIELDS) {
    const id = attempts[slot] as number
    const at = attempts[slot + 1] as number
    const delivery = {
      url: attempts[slot + 2] as string,
      secret: attempts[slot + 3] as string,
      event: { event_id: attempts[slot + 4] as string, payload: attempts[slot + 5] as string }
    }
    void send(delivery, at, options).then((outcome) => answer({ id, outcome }))
  }
})
