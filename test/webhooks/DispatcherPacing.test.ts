/**
 * The dispatcher's pace. Under load (each round claims a full batch) a round
 * begins no sooner than `busyIntervalMillis` after the one before it, so the
 * outbox's claims and records stay a few writes a second on the service's
 * event loop; when a round finds less than a batch it waits the poll interval.
 */
import { EventOutbox, Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { WebhookAdministration } from "@kasko/core/administration"
import { MemoryQuoteStore } from "@kasko/memory"
import { WebhookDispatcher } from "@kasko/webhooks"
import { Effect, Fiber, Layer, TestClock, TestContext } from "effect"
import { expect, it } from "vitest"
import { startClock } from "../support.js"

const LOCAL = { allowInsecure: true, allowPrivateAddresses: true }
const PARTNER = "alice-leasing"

it("goes on after a full batch once the busy interval has passed, and waits the poll interval after a short one", async () => {
  const attemptTimes = await Effect.runPromise(
    Effect.gen(function* () {
      yield* startClock
      const start = yield* TestClock.currentTimeMillis
      yield* WebhookAdministration.createSubscription(
        PARTNER,
        { url: "http://127.0.0.1:9/hooks", event_types: ["quote.created"] },
        LOCAL
      )
      for (let quote = 0; quote < 3; quote++) yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
      const attempts: Array<number> = []
      const dispatcher = yield* Effect.fork(
        WebhookDispatcher.runDispatcher({
          owner: "test",
          policy: LOCAL,
          batchSize: 2,
          busyIntervalMillis: 100,
          pollMillis: 1_000,
          sender: async (_delivery, at) => {
            attempts.push(at - start)
            return { delivered: true, status: 204 }
          }
        })
      )
      // a full batch of two at once, the last one 100 ms later; then the round that found one waits 1 s
      for (const step of [0, 99, 1, 999]) {
        yield* TestClock.adjust(`${step} millis`)
        yield* Effect.yieldNow()
      }
      yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
      yield* TestClock.adjust("1 millis")
      yield* Fiber.interrupt(dispatcher)
      const outbox = yield* EventOutbox.EventOutbox
      const delivered = yield* outbox.deliveriesOf(PARTNER, { limit: 10, deadLetteredOnly: false })
      expect(delivered.map((delivery) => delivery.state)).toEqual(Array(4).fill("delivered"))
      return attempts
    }).pipe(
      Effect.provide(Layer.mergeAll(MemoryQuoteStore.layer, IdGenerator.layerSequential, TariffBook.shipped)),
      Effect.provide(TestContext.TestContext)
    )
  )
  expect(attemptTimes).toEqual([0, 0, 100, 1_100])
})
