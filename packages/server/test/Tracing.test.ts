/**
 * The tracer the service runs with. With neither traces exported nor metrics
 * on, spans are not made at all: the core's decoding and pricing spans and the
 * stores' spans cost nothing then. With metrics on, spans are real (the
 * TimingTracer times them).
 */
import { Effect, Result } from "effect"
import { expect, it } from "vitest"
import { readServiceConfig } from "../src/ServiceConfig.js"
import { makeServiceMetrics } from "../src/ServiceMetrics.js"
import { tracerLayer } from "../src/Tracing.js"

const configOf = (environment: Record<string, string>) =>
  Result.getOrThrowWith(readServiceConfig({ KASKO_DATA_DIR: "/nonexistent", ...environment }), (message) => {
    throw new Error(message)
  })

const spanMadeUnder = (layer: ReturnType<typeof tracerLayer>) =>
  Effect.runPromise(Effect.withSpan(Effect.orDie(Effect.currentSpan), "kasko.pricing").pipe(Effect.provide(layer)))

it("makes no span when traces are not exported and metrics are off", async () => {
  const span = await spanMadeUnder(tracerLayer(configOf({}), undefined))
  expect(span.sampled).toBe(false)
  expect(span.spanId).toBe("noop")
})

it("makes real spans when metrics time them", async () => {
  const span = await spanMadeUnder(tracerLayer(configOf({}), makeServiceMetrics("sqlite")))
  expect(span.sampled).toBe(true)
  expect(span.spanId).not.toBe("noop")
})
