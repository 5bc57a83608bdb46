/**
 * One webhook attempt: the event's payload POSTed to the endpoint, signed per
 * Standard Webhooks (`webhook-id` the event's id, the same on every retry;
 * `webhook-timestamp` the attempt's second; `webhook-signature` `v1,` and the
 * base64 HMAC-SHA256 of `id.timestamp.body` under the secret's key). Signed
 * with node:crypto: the `standardwebhooks` library hashes in JavaScript, ten
 * times slower on the busy path; the suite holds the two to the same bytes and
 * verifies with the library. Connections are kept alive between attempts to
 * an endpoint. A 2xx answer within the timeout is a
 * delivery; anything else — another status, a refused or lost connection, a
 * timeout, an address the endpoint policy refuses — is a failure to retry.
 * The answer's body is read and thrown away, never more than a little of it.
 * @module
 */
import type { EventOutbox } from "@kasko/core"
import { WebhookEndpoints } from "@kasko/core/transport"
import http from "node:http"
import https from "node:https"
import { createHmac } from "node:crypto"
import { safeLookup } from "./SafeLookup.js"

/** How an attempt is sent: its timeout, the endpoints accepted, the User-Agent. */
export interface SenderOptions {
  /** How long an endpoint has to answer, in ms (5 s by default). */
  readonly timeoutMillis: number
  readonly policy: WebhookEndpoints.EndpointPolicy
  /** Sent as User-Agent. */
  readonly userAgent: string
}

/** What one attempt came to: delivered with the endpoint's status, or failed with why (and a status and Retry-After, when answered). */
export type SendOutcome =
  | { readonly delivered: true; readonly status: number }
  | {
      readonly delivered: false
      readonly error: string
      /** The answer's status, when there was one. */
      readonly status?: number
      /** The answer's Retry-After, on a 429 or 503 that had one. */
      readonly retryAfter?: string
    }

const MAX_ANSWER_BYTES = 64 * 1024

// connections to endpoints are reused between attempts (and closed after idling)
const AGENTS = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 })
}

/** What an attempt reads of a claimed delivery: the endpoint, the secret, the event's id and payload. */
type SendableDelivery = Pick<EventOutbox.ClaimedDelivery, "url" | "secret"> & {
  readonly event: Pick<EventOutbox.ClaimedDelivery["event"], "event_id" | "payload">
}

/** The signing key of a `whsec_<base64>` secret: its bytes after the prefix. */
const keyOf = (secret: string): Buffer => Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64")

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, as Standard Webhooks defines it. */
export const signature = (secret: string, messageId: string, timestampSeconds: number, payload: string): string =>
  `v1,${createHmac("sha256", keyOf(secret)).update(`${messageId}.${timestampSeconds}.${payload}`).digest("base64")}`

/** The Standard Webhooks headers of a message, signed at `at` (epoch ms). */
export const signedHeaders = (
  delivery: Pick<SendableDelivery, "event" | "secret">,
  at: number
): Record<string, string> => {
  const seconds = Math.floor(at / 1000)
  return {
    "webhook-id": delivery.event.event_id,
    "webhook-timestamp": String(seconds),
    "webhook-signature": signature(delivery.secret, delivery.event.event_id, seconds, delivery.event.payload)
  }
}

/** Makes one attempt at `at` (epoch ms, the dispatcher's clock); never rejects. */
export const send = (delivery: SendableDelivery, at: number, options: SenderOptions): Promise<SendOutcome> =>
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
        // node:http follows no redirect: an endpoint that redirects has failed
        agent: AGENTS[url.protocol as "http:" | "https:"]
      },
      (answer) => {
        const status = answer.statusCode ?? 0
        let received = 0
        answer.on("data", (chunk: Buffer) => {
          received += chunk.length
          if (received > MAX_ANSWER_BYTES) answer.destroy()
        })
        answer.on("error", () => undefined)
        const retryAfter = status === 429 || status === 503 ? answer.headers["retry-after"] : undefined
        answer.on("close", () =>
          settle(
            status >= 200 && status < 300
              ? { delivered: true, status }
              : {
                  delivered: false,
                  error: `answered ${status}`,
                  status,
                  ...(retryAfter === undefined ? {} : { retryAfter })
                }
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
