/**
 * A dead-lettered delivery and the operator: after a receiver has failed for
 * the whole retry window (the test clock moves a day), `kasko webhooks
 * deliveries --failed` lists the delivery, `kasko webhooks replay` puts it back
 * in line, and the next round delivers it — on the service's SQLite database.
 */
import { Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { SqliteStores } from "@kasko/sqlite"
import { WebhookDispatcher } from "@kasko/webhooks"
import { Layer, ManagedRuntime } from "effect"
import { TestClock } from "effect/testing"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { kaskoWith, startClock, temporaryDirectory } from "../support.js"
import { startReceiver } from "./Receiver.js"

const directory = temporaryDirectory("kasko-replay-")
afterAll(() => directory.remove())

const LOCAL = { allowInsecure: true, allowPrivateAddresses: true }
const ENVIRONMENT = { KASKO_DATA_DIR: directory.path, KASKO_WEBHOOKS_ALLOW_INSECURE: "true" }
const kasko = (...args: Array<string>) => kaskoWith(ENVIRONMENT, ...args)

describe("replaying a dead-lettered delivery", () => {
  it("lists it with kasko webhooks deliveries --failed, and delivers it after kasko webhooks replay", async () => {
    const receiver = await startReceiver()
    try {
      await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset A/S")
      await kasko("webhooks", "add", "--partner", "bilhuset", "--url", receiver.url, "--events", "quote.created")
      const runtime = ManagedRuntime.make(
        Layer.mergeAll(
          SqliteStores.layer({ filename: join(directory.path, "kasko.db") }),
          IdGenerator.layerSequential,
          TariffBook.shipped,
          TestClock.layer()
        )
      )
      const dispatch = WebhookDispatcher.dispatchOnce({ owner: "test", policy: LOCAL, random: () => 0.5 })
      await runtime.runPromise(startClock)
      const quote = await runtime.runPromise(QuotingService.createQuote("bilhuset", Examples.quoteRequest()))
      receiver.answerWith(503)
      for (let hour = 0; hour <= 26; hour++) {
        await runtime.runPromise(dispatch)
        await runtime.runPromise(TestClock.adjust("1 hour"))
      }
      const failed = JSON.parse(await kasko("webhooks", "deliveries", "--partner", "bilhuset", "--failed", "--json"))
      expect(failed).toMatchObject([
        { quote_id: quote.quote_id, event_type: "quote.created", state: "dead_lettered", last_error: "answered 503" }
      ])
      const attemptsWhileDown = receiver.received.length
      expect(attemptsWhileDown).toBe(failed[0].attempts)

      receiver.answerWith(204)
      await runtime.runPromise(dispatch)
      expect(receiver.received).toHaveLength(attemptsWhileDown)
      expect(await kasko("webhooks", "replay", "--partner", "bilhuset", "--delivery", failed[0].delivery_id)).toContain(
        "is due again"
      )
      // the replay is due now, by the wall clock: the test clock catches up with it
      await runtime.runPromise(TestClock.setTime(Date.now() + 1_000))
      await runtime.runPromise(dispatch)
      expect(receiver.received).toHaveLength(attemptsWhileDown + 1)
      expect(JSON.parse(await kasko("webhooks", "deliveries", "--partner", "bilhuset", "--json"))).toMatchObject([
        { delivery_id: failed[0].delivery_id, state: "delivered", attempts: failed[0].attempts + 1 }
      ])
      await expect(
        kasko("webhooks", "replay", "--partner", "bilhuset", "--delivery", failed[0].delivery_id)
      ).rejects.toThrow(/is delivered: only a dead-lettered delivery can be replayed/)
      await runtime.dispose()
    } finally {
      await receiver.close()
    }
  }, 60_000)
})
