/**
 * The body of the sending thread (see ThreadSender): takes batches of
 * attempts from the service's thread, makes them with the HTTP sender and
 * answers their outcomes, batched the same way.
 */
import { parentPort, workerData } from "node:worker_threads"
import { coalesced } from "./Coalesced.js"
import type { AttemptMessage, OutcomeMessage } from "./ThreadSender.js"
import { type SenderOptions, send } from "./WebhookSender.js"

const port = parentPort!
const options = workerData as SenderOptions
const answer = coalesced<OutcomeMessage>((outcomes) => port.postMessage(outcomes))

port.on("message", (attempts: ReadonlyArray<AttemptMessage>) => {
  for (const { id, delivery, at } of attempts)
    void send(delivery, at, options).then((outcome) => answer({ id, outcome }))
})
