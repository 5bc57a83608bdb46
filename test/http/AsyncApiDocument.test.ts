/**
 * `/asyncapi.json`: the quote events' AsyncAPI 3 document is valid by the
 * reference parser (@asyncapi/parser, no error), names every event type, and
 * its body schema accepts what the outbox really sends — created and
 * activated events made by the engine.
 */
import { Parser } from "@asyncapi/parser"
import { EventOutbox, Examples, IdGenerator, QuoteEvents, QuotingService, TariffBook } from "@kasko/core"
import { MemoryQuoteStore } from "@kasko/memory"
import { Ajv } from "ajv"
import addFormats from "ajv-formats"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestService, type TestService } from "./support.js"

let service: TestService
let text: string
beforeAll(async () => {
  service = await startTestService()
  text = await (await fetch(`${service.url}/asyncapi.json`)).text()
}, 60_000)
afterAll(() => service.stop())

describe("the served AsyncAPI document", () => {
  it("parses with @asyncapi/parser without an error", async () => {
    const { document, diagnostics } = await new Parser().parse(text)
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 0)
    expect(errors.map((error) => `${error.path.join(".")}: ${error.message}`)).toEqual([])
    expect(document?.version()).toBe("3.0.0")
    expect(
      document
        ?.allMessages()
        .all()
        .map((message) => message.name())
        .sort()
    ).toEqual([...QuoteEvents.QUOTE_EVENT_TYPES].sort())
  })

  it("describes the bodies the outbox sends", async () => {
    const events = await Effect.runPromise(
      Effect.gen(function* () {
        const quote = yield* QuotingService.createQuote("alice-leasing", Examples.quoteRequest())
        yield* QuotingService.activateQuote("alice-leasing", quote.quote_id)
        return yield* (yield* EventOutbox.EventOutbox).eventsOfQuote(quote.quote_id)
      }).pipe(Effect.provide(Layer.mergeAll(MemoryQuoteStore.layer, IdGenerator.layerSequential, TariffBook.shipped)))
    )
    const ajv = new Ajv({ strict: false, allErrors: true })
    addFormats.default(ajv)
    // the document's schemas alone, where their #/components/schemas/… references resolve
    const { components } = JSON.parse(text) as { components: { schemas: object } }
    ajv.addSchema({ components: { schemas: components.schemas } }, "asyncapi.json")
    const validate = ajv.compile({ $ref: "asyncapi.json#/components/schemas/QuoteEvent" })
    expect(events.map((event) => event.type)).toEqual(["quote.created", "quote.activated"])
    for (const event of events) {
      expect(validate(JSON.parse(event.payload)), JSON.stringify(validate.errors)).toBe(true)
    }
    expect(validate({ ...JSON.parse(events[0]!.payload), type: "quote.deleted" })).toBe(false)
    // the quote as retrieved says its state and expiry, and the document requires them
    expect(events.map((event) => JSON.parse(event.payload).data.quote.status)).toEqual([
      "await_activation",
      "activated"
    ])
    const { status: _status, ...stateless } = JSON.parse(events[0]!.payload).data.quote
    expect(validate({ ...JSON.parse(events[0]!.payload), data: { state: "await_activation", quote: stateless } })).toBe(
      false
    )
  })

  it("is public, like /openapi.json, and answers 405 to other methods", async () => {
    const answer = await fetch(`${service.url}/asyncapi.json`, { method: "POST" })
    expect(answer.status).toBe(405)
    expect(answer.headers.get("allow")).toBe("GET, HEAD")
  })
})
