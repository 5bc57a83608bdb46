/**
 * Spans on the request path capture no stack. Effect's withSpan makes an Error
 * per span for its stack frame unless told not to — a few microseconds each,
 * on every request, for a frame no exporter reads. With traces off the service
 * still makes the core's spans (decoding, pricing) and the stores' spans, so
 * every Error Effect's tracer makes while requests run is counted here.
 */
import { Examples } from "@kasko/core"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { asPartner, startTestService, type TestService } from "./support.js"

/** Counts the Errors made by Effect's span stack capture while `run` runs. */
const spanStacksDuring = async (run: () => Promise<void>): Promise<number> => {
  const OriginalError = globalThis.Error
  let count = 0
  globalThis.Error = new Proxy(OriginalError, {
    construct(target, args, newTarget) {
      const limit = OriginalError.stackTraceLimit
      OriginalError.stackTraceLimit = 12
      const probe = Reflect.construct(target, [], target) as Error
      OriginalError.stackTraceLimit = limit
      if (/addSpanStackTrace/.test(probe.stack ?? "")) count += 1
      return Reflect.construct(target, args, newTarget)
    }
  })
  try {
    await run()
  } finally {
    globalThis.Error = OriginalError
  }
  return count
}

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})
afterAll(() => service.stop())

const post = (path: string, body: unknown) =>
  fetch(`${service.url}${path}`, {
    method: "POST",
    headers: { ...asPartner("partner-a"), "content-type": "application/json", "ocp-apim-subscription-key": "k" },
    body: JSON.stringify(body)
  })

it("counts a stack captured by a span made the default way (the check can fail)", async () => {
  const count = await spanStacksDuring(() => Effect.runPromise(Effect.withSpan(Effect.void, "default")))
  expect(count).toBe(1)
})

it("captures no span stack for offers, quotes and reading a quote", async () => {
  let quoteId = ""
  const count = await spanStacksDuring(async () => {
    for (let round = 0; round < 5; round += 1) {
      expect((await post("/insurance/car/offers", Examples.offerRequest())).status).toBe(200)
      const created = await post("/insurance/car/quotes", Examples.quoteRequest())
      expect(created.status).toBe(200)
      quoteId = ((await created.json()) as { quote_id: string }).quote_id
      const read = await fetch(`${service.url}/insurance/car/quotes/${quoteId}`, { headers: asPartner("partner-a") })
      expect(read.status).toBe(200)
    }
  })
  expect(quoteId).not.toBe("")
  expect(count).toBe(0)
})
