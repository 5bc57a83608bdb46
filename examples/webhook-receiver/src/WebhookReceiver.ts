/**
 * A partner's endpoint for kasko's quote events, as a partner would write it:
 * read the raw body, verify the Standard Webhooks signature with the secret
 * kasko answered when the endpoint was subscribed (a wrong signature or a
 * timestamp older than five minutes is refused with 400), skip an event
 * already seen (delivery is at least once: deduplicate on webhook-id), hand
 * the event on, and answer 204 at once — kasko retries anything but a 2xx
 * answered within five seconds.
 */
import { createServer, type Server } from "node:http"
import { Webhook, WebhookVerificationError } from "standardwebhooks"

/** What kasko sends: the event, and the quote as retrieving it would answer then. */
export interface QuoteEvent {
  readonly id: string
  readonly type: "quote.created" | "quote.activated" | "quote.expired"
  readonly occurred_at: string
  readonly partner_id: string
  readonly quote_id: string
  readonly data: { readonly state: "await_activation" | "activated"; readonly quote: Record<string, unknown> }
}

export interface ReceiverOptions {
  /** The `whsec_…` secret kasko answered for this endpoint. */
  readonly secret: string
  /** Called once per event, in the order kasko sends a quote's events. */
  readonly onEvent: (event: QuoteEvent) => void
  /** Ids seen, for deduplication; a database table in production. */
  readonly seen?: Set<string>
}

const MAX_BODY_BYTES = 1024 * 1024

export const webhookReceiver = (options: ReceiverOptions): Server => {
  const verifier = new Webhook(options.secret)
  const seen = options.seen ?? new Set<string>()
  return createServer((request, response) => {
    if (request.method !== "POST") return void response.writeHead(405, { allow: "POST" }).end()
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) request.destroy()
      else chunks.push(chunk)
    })
    request.on("end", () => {
      // verify the bytes as they arrived: parsing and re-serialising would change them
      const body = Buffer.concat(chunks).toString("utf8")
      const headers = Object.fromEntries(
        ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [
          name,
          String(request.headers[name] ?? "")
        ])
      )
      let event: QuoteEvent
      try {
        event = verifier.verify(body, headers) as QuoteEvent
      } catch (error) {
        const reason = error instanceof WebhookVerificationError ? error.message : "unreadable body"
        return void response.writeHead(400, { "content-type": "text/plain" }).end(reason)
      }
      const id = headers["webhook-id"]!
      if (!seen.has(id)) {
        seen.add(id)
        options.onEvent(event)
      }
      response.writeHead(204).end()
    })
  })
}
