/**
 * The webhook receiver example against kasko's real dispatcher: each event
 * arrives once — a repeated delivery is acknowledged and skipped — and a body
 * signed with another secret, or altered on the way, is refused with 400,
 * which kasko counts as a failure to retry.
 */
import { type EventOutbox, Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { WebhookAdministration } from "@kasko/core/administration"
import { type QuoteEvent, webhookReceiver } from "@kasko/example-webhook-receiver"
import { MemoryQuoteStore } from "@kasko/memory"
import { WebhookDispatcher, WebhookSender } from "@kasko/webhooks"
import { Layer, ManagedRuntime } from "effect"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"

const LOCAL = { allowInsecure: true, allowPrivateAddresses: true }
const PARTNER = "bilhuset"

const listen = async (server: ReturnType<typeof webhookReceiver>) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/kasko`
}

describe("the webhook receiver example", () => {
  const servers: Array<ReturnType<typeof webhookReceiver>> = []
  afterEach(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
    servers.length = 0
  })

  it("takes each event once from kasko's dispatcher and refuses what was not signed with its secret", async () => {
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(MemoryQuoteStore.layer, IdGenerator.layerSequential, TariffBook.shipped)
    )
    const events: Array<QuoteEvent> = []
    // the endpoint is subscribed first: its secret comes from kasko
    const placeholder = webhookReceiver({ secret: `whsec_${Buffer.alloc(32).toString("base64")}`, onEvent: () => {} })
    servers.push(placeholder)
    const url = await listen(placeholder)
    const subscription = await runtime.runPromise(
      WebhookAdministration.createSubscription(
        PARTNER,
        { url, event_types: ["quote.created", "quote.activated"] },
        LOCAL
      )
    )
    placeholder.close()
    servers.length = 0
    const receiver = webhookReceiver({ secret: subscription.secret, onEvent: (event) => events.push(event) })
    servers.push(receiver)
    receiver.listen(Number(new URL(url).port), "127.0.0.1")
    await new Promise((resolve) => receiver.once("listening", resolve))

    const quote = await runtime.runPromise(QuotingService.createQuote(PARTNER, Examples.quoteRequest()))
    await runtime.runPromise(QuotingService.activateQuote(PARTNER, quote.quote_id))
    const dispatch = WebhookDispatcher.dispatchOnce({ owner: "example", policy: LOCAL })
    await runtime.runPromise(dispatch)
    await runtime.runPromise(dispatch)
    expect(events.map((event) => [event.type, event.quote_id])).toEqual([
      ["quote.created", quote.quote_id],
      ["quote.activated", quote.quote_id]
    ])

    // the same delivery again (a retry after a lost answer): acknowledged, not handed on twice
    const delivery: EventOutbox.ClaimedDelivery = {
      delivery_id: "dlv_again",
      subscription_id: "whk_receiver",
      event: {
        event_id: `evt_${quote.quote_id}_created`,
        type: "quote.created",
        occurred_at: 0,
        partner_id: PARTNER,
        quote_id: quote.quote_id,
        payload: JSON.stringify({ ...events[0] })
      },
      url,
      secret: subscription.secret,
      attempts: 0,
      first_attempt_at: undefined,
      failing_since: undefined
    }
    const options = { timeoutMillis: 5_000, policy: LOCAL, userAgent: "test" }
    expect(await WebhookSender.send(delivery, Date.now(), options)).toEqual({ delivered: true, status: 204 })
    expect(events).toHaveLength(2)

    // signed with another secret: refused, and kasko would retry it
    const forged = { ...delivery, secret: `whsec_${Buffer.alloc(32, 1).toString("base64")}` }
    expect(await WebhookSender.send(forged, Date.now(), options)).toEqual({
      delivered: false,
      error: "answered 400",
      status: 400
    })
    // signed long ago: refused as a replay
    expect(await WebhookSender.send(delivery, Date.now() - 10 * 60_000, options)).toEqual({
      delivered: false,
      error: "answered 400",
      status: 400
    })
    await runtime.dispose()
  })
})
