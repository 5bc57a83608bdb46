/**
 * The dispatcher's pace. A pass that claims every free slot is followed by
 * another once `busyIntervalMillis` has passed; one that leaves slots free
 * waits for an attempt to answer (or the poll interval) and then the busy
 * interval: the outbox's claims and records stay a few writes a second on the
 * service's event loop, and nothing waits longer than the poll interval.
 */
import { EventOutbox, Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { WebhookAdministration } from "@kasko/core/administration"
import { MemoryQuoteStore } from "@kasko/memory"
import { WebhookDispatcher } from "@kasko/webhooks"
import { Clock, Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { expect, it } from "vitest"
import { startClock } from "../support.js"

const LOCAL = { allowInsecure: true, allowPrivateAddresses: true }
const PARTNER = "alice-leasing"

it("claims again after the busy interval when a pass took every free slot, and after the poll interval when nothing was due", async () => {
  const attemptTimes = await Effect.runPromise(
    Effect.gen(function* () {
      yield* startClock
      const start = yield* Clock.currentTimeMillis
      yield* WebhookAdministration.createSubscription(
        PARTNER,
        { url: "http://127.0.0.1:9/hooks", event_types: ["quote.created"] },
        LOCAL
      )
      for (let quote = 0; quote < 3; quote++) yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
      const attempts: Array<number> = []
      const dispatcher = yield* Effect.forkChild(
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
      // two slots: two attempts at once; the third 100 ms later; then nothing is due until the fourth quote,
      // created while the dispatcher waits its poll interval (1 s after the pass at 200 ms)
      for (const step of [0, 100, 100, 900]) {
        yield* TestClock.adjust(`${step} millis`)
        yield* Effect.yieldNow
      }
      yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest())
      // attempted at 1 200 ms; its outcome is recorded by the pass after, at 1 300 ms
      for (const step of [100, 100]) {
        yield* TestClock.adjust(`${step} millis`)
        yield* Effect.yieldNow
      }
      yield* Fiber.interrupt(dispatcher)
      const outbox = yield* EventOutbox.EventOutbox
      const delivered = yield* outbox.deliveriesOf(PARTNER, { limit: 10, deadLetteredOnly: false })
      expect(delivered.map((delivery) => delivery.state)).toEqual(Array(4).fill("delivered"))
      return attempts
    }).pipe(
      Effect.provide(Layer.mergeAll(MemoryQuoteStore.layer, IdGenerator.layerSequential, TariffBook.shipped)),
      Effect.provide(TestClock.layer())
    )
  )
  expect(attemptTimes).toEqual([0, 0, 100, 1_200])
})
