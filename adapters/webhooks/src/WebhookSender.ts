/**
 * One webhook attempt: the event's payload POSTed to the endpoint, signed per
 * Standard Webhooks (`webhook-id` the event's id, the same on every retry;
 * `webhook-timestamp` the attempt's second; `webhook-signature` v1 HMAC-SHA256
 * by the `standardwebhooks` library). A 2xx answer within the timeout is a
 * delivery; anything else — another status, a refused or lost connection, a
 * timeout, an address the endpoint policy refuses — is a failure to retry.
 * The answer's body is read and thrown away, never more than a little of it.
 */
import type { EventOutbox } from "@kasko/core"
import { WebhookEndpoints } from "@kasko/core/transport"
import http from "node:http"
import https from "node:https"
import { Webhook } from "standardwebhooks"
import { safeLookup } from "./SafeLookup.js"

export interface SenderOptions {
  /** How long an endpoint has to answer, in ms (5 s by default). */
  readonly timeoutMillis: number
  readonly policy: WebhookEndpoints.EndpointPolicy
  /** Sent as User-Agent. */
  readonly userAgent: string
}

export type SendOutcome =
  | { readonly delivered: true; readonly status: number }
  | { readonly delivered: false; readonly error: string }

const MAX_ANSWER_BYTES = 64 * 1024

/** The Standard Webhooks headers of a message, signed at `at` (epoch ms). */
export const signedHeaders = (
  delivery: Pick<EventOutbox.ClaimedDelivery, "event" | "secret">,
  at: number
): Record<string, string> => {
  const timestamp = new Date(Math.floor(at / 1000) * 1000)
  return {
    "webhook-id": delivery.event.event_id,
    "webhook-timestamp": String(timestamp.getTime() / 1000),
    "webhook-signature": new Webhook(delivery.secret).sign(delivery.event.event_id, timestamp, delivery.event.payload)
  }
}

/** Makes one attempt at `at` (epoch ms, the dispatcher's clock); never rejects. */
export const send = (delivery: EventOutbox.ClaimedDelivery, at: number, options: SenderOptions): Promise<SendOutcome> =>
  new Promise((resolve) => {
    const refusal = WebhookEndpoints.endpointRefusal(delivery.url, options.policy)
    if (refusal !== undefined) return resolve({ delivered: false, error: `endpoint refused: ${refusal}` })
    const url = new URL(delivery.url)
    const body = Buffer.from(delivery.event.payload, "utf8")
    const client = url.protocol === "https:" ? https : http
    let settled = false
    const settle = (outcome: SendOutcome) => {
      if (settled) return
      settled = true
      resolve(outcome)
    }
    const request = client.request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": String(body.length),
          "user-agent": options.userAgent,
          ...signedHeaders(delivery, at)
        },
        ...(options.policy.allowPrivateAddresses ? {} : { lookup: safeLookup }),
        timeout: options.timeoutMillis,
        // an endpoint that redirects is answered as failing: no request follows a redirect
        agent: false
      },
      (answer) => {
        const status = answer.statusCode ?? 0
        let received = 0
        answer.on("data", (chunk: Buffer) => {
          received += chunk.length
          if (received > MAX_ANSWER_BYTES) answer.destroy()
        })
        answer.on("error", () => undefined)
        answer.on("close", () =>
          settle(
            status >= 200 && status < 300
              ? { delivered: true, status }
              : { delivered: false, error: `answered ${status}` }
          )
        )
        answer.resume()
      }
    )
    const deadline = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMillis} ms`)),
      options.timeoutMillis
    )
    request.on("timeout", () => request.destroy(new Error(`no answer within ${options.timeoutMillis} ms`)))
    request.on("error", (error) => settle({ delivered: false, error: error.message }))
    request.on("close", () => clearTimeout(deadline))
    request.end(body)
  })
