/**
 * Webhook delivery end to end in one process: quotes made by the engine on
 * the in-memory stores, the dispatcher's rounds, a real HTTP receiver.
 * Signatures verify with the Standard Webhooks reference verifier; a receiver
 * that is down is retried with backoff (the test clock moves time), reached
 * when it is back, in order per quote; after the retry window the delivery is
 * dead-lettered, and a replay delivers it.
 */
import { EventOutbox, Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { WebhookAdministration } from "@kasko/core/administration"
import { DeliverySchedule } from "@kasko/core/transport"
import { MemoryQuoteStore } from "@kasko/memory"
import { WebhookDispatcher, WebhookSender } from "@kasko/webhooks"
import { Clock, Effect, Layer, ManagedRuntime } from "effect"
import { TestClock } from "effect/testing"
import { Webhook } from "standardwebhooks"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { startClock } from "../support.js"
import { headersOf, type Receiver, startReceiver } from "./Receiver.js"

// the receiver listens on 127.0.0.1 over http: allowed here, as KASKO_WEBHOOKS_ALLOW_INSECURE allows it locally
const LOCAL = { allowInsecure: true, allowPrivateAddresses: true }
const PARTNER = "alice-leasing"
const engine = () => Layer.mergeAll(MemoryQuoteStore.layer, IdGenerator.layerSequential, TariffBook.shipped)
const dispatch = WebhookDispatcher.dispatchOnce({ owner: "test", policy: LOCAL, random: () => 0 })

describe("webhook delivery", () => {
  let receiver: Receiver
  /** The test clock started, and the partner subscribed to its quotes' creation at the receiver. */
  const subscribedToCreations = () =>
    Effect.andThen(
      startClock,
      WebhookAdministration.createSubscription(PARTNER, { url: receiver.url, event_types: ["quote.created"] }, LOCAL)
    )
  beforeEach(async () => {
    receiver = await startReceiver()
  })
  afterEach(() => receiver.close())

  it("signs each delivery so that the Standard Webhooks verifier accepts it, and not a tampered or stale one", async () => {
    // the real clock: the verifier compares the timestamp with now
    const runtime = ManagedRuntime.make(engine())
    const subscription = await runtime.runPromise(
      WebhookAdministration.createSubscription(PARTNER, { url: receiver.url, event_types: ["quote.created"] }, LOCAL)
    )
    const quote = await runtime.runPromise(QuotingService.createQuote(PARTNER, Examples.quoteRequest()))
    expect(await runtime.runPromise(dispatch)).toBe(1)
    await runtime.dispose()

    expect(receiver.received).toHaveLength(1)
    const message = receiver.received[0]!
    const headers = headersOf(message)
    const verifier = new Webhook(subscription.secret)
    expect(verifier.verify(message.body, headers)).toEqual(JSON.parse(message.body))
    expect(JSON.parse(message.body)).toMatchObject({
      id: `evt_${quote.quote_id}_created`,
      type: "quote.created",
      partner_id: PARTNER,
      quote_id: quote.quote_id,
      data: { state: "await_activation", quote: { quote_id: quote.quote_id } }
    })
    expect(headers["webhook-id"]).toBe(`evt_${quote.quote_id}_created`)
    expect(headers["content-type"]).toBe("application/json")

    expect(() => verifier.verify(message.body.replace(PARTNER, "mallory-leasing"), headers)).toThrow(
      /No matching signature/
    )
    const event = { event_id: headers["webhook-id"]!, payload: message.body }
    const stale = WebhookSender.signedHeaders(
      { event: event as never, secret: subscription.secret },
      Date.now() - 600_000
    )
    expect(() => verifier.verify(message.body, stale)).toThrow(/too old/)
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(message.body, headers)).toThrow(
      /No matching signature/
    )
  })

  it("signs exactly as the standardwebhooks library does", () => {
    const secret = `whsec_${Buffer.alloc(32, 42).toString("base64")}`
    const payload = JSON.stringify({ type: "quote.created", data: { name: "Åse Ærtebølle" } })
    for (const seconds of [0, 1_700_000_000, 2_000_000_001])
      expect(WebhookSender.signature(secret, "evt_1_created", seconds, payload)).toBe(
        new Webhook(secret).sign("evt_1_created", new Date(seconds * 1000), payload)
      )
  })

  it("retries while the receiver is down, with backoff, and delivers in order per quote when it is back", async () => {
    const delivered = await Effect.runPromise(
      Effect.gen(function* () {
        yield* startClock
        yield* WebhookAdministration.createSubscription(
          PARTNER,
          { url: receiver.url, event_types: ["quote.created", "quote.activated"] },
          LOCAL
        )
        const quote = yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
        yield* QuotingService.activateQuote(PARTNER, quote.quote_id)
        receiver.answerWith(503)
        expect(yield* dispatch).toBe(1)
        expect(yield* dispatch).toBe(0)
        // the first retry, with no jitter (random 0), half of 10 s later
        yield* TestClock.adjust("4999 millis")
        expect(yield* dispatch).toBe(0)
        yield* TestClock.adjust("1 millis")
        expect(yield* dispatch).toBe(1)
        receiver.answerWith(200)
        // the second retry: half of 20 s after the first
        yield* TestClock.adjust("10 seconds")
        expect(yield* dispatch).toBe(1)
        // the activation waited for the creation to be delivered
        expect(yield* dispatch).toBe(1)
        expect(yield* dispatch).toBe(0)
        return receiver.received.map((received) => (JSON.parse(received.body) as { type: string }).type)
      }).pipe(Effect.provide(Layer.merge(engine(), TestClock.layer())))
    )
    expect(delivered).toEqual(["quote.created", "quote.created", "quote.created", "quote.activated"])
  })

  it("waits as long as a 429 or 503 answer's Retry-After asks, an hour at most", async () => {
    const attempts = await Effect.runPromise(
      Effect.gen(function* () {
        yield* subscribedToCreations()
        yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
        // two minutes asked, where the backoff alone would retry after 5 s (random 0)
        receiver.answerWith(503, { "retry-after": "120" })
        expect(yield* dispatch).toBe(1)
        yield* TestClock.adjust("119 seconds")
        expect(yield* dispatch).toBe(0)
        yield* TestClock.adjust("1 second")
        // a day asked, as an HTTP date: an hour at most
        const now = yield* Clock.currentTimeMillis
        receiver.answerWith(429, { "retry-after": new Date(now + 86_400_000).toUTCString() })
        expect(yield* dispatch).toBe(1)
        yield* TestClock.adjust("59 minutes")
        expect(yield* dispatch).toBe(0)
        yield* TestClock.adjust("1 minute")
        receiver.answerWith(204)
        expect(yield* dispatch).toBe(1)
        return receiver.received.length
      }).pipe(Effect.provide(Layer.merge(engine(), TestClock.layer())))
    )
    expect(attempts).toBe(3)
  })

  it("tells each attempt's outcome only once the outbox has recorded it", async () => {
    const runtime = ManagedRuntime.make(engine())
    const pendingWhenTold: Array<[string, number]> = []
    const readPending = () =>
      runtime.runSync(Effect.flatMap(EventOutbox.EventOutbox, (outbox) => outbox.backlog)).pending_deliveries
    const observed = WebhookDispatcher.dispatchOnce({
      owner: "test",
      policy: LOCAL,
      random: () => 0,
      onAttempt: ({ event }, outcome) => pendingWhenTold.push([`${event.type} ${outcome.delivered}`, readPending()])
    })
    try {
      await runtime.runPromise(
        WebhookAdministration.createSubscription(PARTNER, { url: receiver.url, event_types: ["quote.created"] }, LOCAL)
      )
      await runtime.runPromise(QuotingService.createQuote(PARTNER, Examples.quoteRequest()))
      await runtime.runPromise(QuotingService.createQuote(PARTNER, Examples.quoteRequest()))
      expect(await runtime.runPromise(observed)).toBe(2)
      // both delivered, and the outbox holds neither pending any more when each is told
      expect(pendingWhenTold).toEqual([
        ["quote.created true", 0],
        ["quote.created true", 0]
      ])
    } finally {
      await runtime.dispose()
    }
  })

  it("goes on delivering when the observer of its attempts throws", async () => {
    const runtime = ManagedRuntime.make(engine())
    const throwing = WebhookDispatcher.dispatchOnce({
      owner: "test",
      policy: LOCAL,
      onAttempt: () => {
        throw new Error("the metrics broke")
      }
    })
    try {
      await runtime.runPromise(
        WebhookAdministration.createSubscription(PARTNER, { url: receiver.url, event_types: ["quote.created"] }, LOCAL)
      )
      await runtime.runPromise(QuotingService.createQuote(PARTNER, Examples.quoteRequest()))
      expect(await runtime.runPromise(throwing)).toBe(1)
      // recorded as delivered: nothing is left to send
      expect(await runtime.runPromise(throwing)).toBe(0)
      expect(receiver.received).toHaveLength(1)
    } finally {
      await runtime.dispose()
    }
  })

  it("dead-letters a delivery that fails for the whole retry window, and delivers it once replayed", async () => {
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        yield* subscribedToCreations()
        yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
        receiver.answerWith(500)
        const outbox = yield* EventOutbox.EventOutbox
        let rounds = 0
        while (
          (yield* outbox.deliveriesOf(PARTNER, { limit: 1, deadLetteredOnly: true })).length === 0 &&
          rounds < 100
        ) {
          yield* dispatch
          yield* TestClock.adjust("1 hour")
          rounds++
        }
        const [dead] = yield* outbox.deliveriesOf(PARTNER, { limit: 1, deadLetteredOnly: true })
        const attemptsWhileDown = receiver.received.length
        receiver.answerWith(204)
        yield* TestClock.adjust("1 day")
        const afterWindow = yield* dispatch
        const replayed = yield* outbox.replay(PARTNER, dead!.delivery_id, yield* Clock.currentTimeMillis)
        const afterReplay = yield* dispatch
        const [record] = yield* outbox.deliveriesOf(PARTNER, { limit: 1, deadLetteredOnly: false })
        return { dead: dead!, attemptsWhileDown, afterWindow, replayed, afterReplay, record: record! }
      }).pipe(Effect.provide(Layer.merge(engine(), TestClock.layer())))
    )
    expect(result.dead.state).toBe("dead_lettered")
    expect(result.dead.last_error).toBe("answered 500")
    // tried for at least the retry window: the last failed attempt is 24 hours or more after the first
    expect(result.dead.last_attempt_at! - result.dead.created_at).toBeGreaterThanOrEqual(
      DeliverySchedule.RETRY_WINDOW_MILLIS
    )
    expect(result.attemptsWhileDown).toBe(result.dead.attempts)
    expect(result.afterWindow).toBe(0)
    expect(result.replayed).toEqual({ _tag: "Replayed" })
    expect(result.afterReplay).toBe(1)
    expect(result.record).toMatchObject({ state: "delivered", attempts: result.dead.attempts + 1 })
  })

  it("disables a subscription whose endpoint answers 410 Gone until its partner enables it again", async () => {
    const disabled: Array<string> = []
    const dispatchTelling = WebhookDispatcher.dispatchOnce({
      owner: "test",
      policy: LOCAL,
      random: () => 0,
      onDisabled: (delivery, reason) => disabled.push(`${delivery.subscription_id}: ${reason}`)
    })
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const subscription = yield* subscribedToCreations()
        yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
        receiver.answerWith(410)
        expect(yield* dispatchTelling).toBe(1)
        const [listed] = yield* WebhookAdministration.listSubscriptions(PARTNER)
        // no event goes to it while it is disabled, then or later
        yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
        yield* TestClock.adjust("1 hour")
        receiver.answerWith(204)
        const whileDisabled = yield* dispatchTelling
        const outbox = yield* EventOutbox.EventOutbox
        const deadLetters = yield* outbox.deliveriesOf(PARTNER, { limit: 10, deadLetteredOnly: true })
        const enabled = yield* WebhookAdministration.enableSubscription(PARTNER, subscription.subscription_id)
        const third = yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
        const afterEnabling = yield* dispatchTelling
        return { subscription, listed: listed!, whileDisabled, deadLetters, enabled, third, afterEnabling }
      }).pipe(Effect.provide(Layer.merge(engine(), TestClock.layer())))
    )
    expect(result.listed.disabled).toEqual({ at: expect.any(Number), reason: "the endpoint answered 410 Gone" })
    expect(disabled).toEqual([`${result.subscription.subscription_id}: the endpoint answered 410 Gone`])
    expect(result.whileDisabled).toBe(0)
    expect(result.deadLetters.map((delivery) => delivery.last_error)).toEqual([
      "the subscription was disabled: the endpoint answered 410 Gone"
    ])
    expect(result.enabled.disabled).toBeUndefined()
    expect(result.afterEnabling).toBe(1)
    expect(JSON.parse(receiver.received.at(-1)!.body).quote_id).toBe(result.third.quote_id)
  })

  it("disables a subscription whose endpoint has failed every attempt for 5 days, not sooner", async () => {
    const states = await Effect.runPromise(
      Effect.gen(function* () {
        yield* subscribedToCreations()
        receiver.answerWith(500)
        // a new quote every 12 hours, each delivery failing (and retried, then dead-lettered after a day)
        const seen: Array<boolean> = []
        for (let halfDay = 0; halfDay <= 11; halfDay++) {
          yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
          yield* dispatch
          const [subscription] = yield* WebhookAdministration.listSubscriptions(PARTNER)
          seen.push(subscription!.disabled !== undefined)
          yield* TestClock.adjust("12 hours")
        }
        return seen
      }).pipe(Effect.provide(Layer.merge(engine(), TestClock.layer())))
    )
    // failing since the first attempt (half-day 0): enabled through 4.5 days, disabled at the failure 5 days on
    expect(states).toEqual([false, false, false, false, false, false, false, false, false, false, true, true])
  })
})
