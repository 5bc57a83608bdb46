/**
 * An Effect tracer that times kasko's own spans into the service's metrics —
 * pricing (`kasko.pricing`, from the core) and store calls
 * (`kasko.store.<store>.<operation>`, from InstrumentedStores) — and hands
 * every span on to the tracer it wraps (Effect's own, or OpenTelemetry's when
 * traces are exported). Durations are read from the monotonic clock, not from
 * the service's Clock, which tests move.
 */
import { QuotingService } from "@kasko/core"
import { Tracer } from "effect"
import { performance } from "node:perf_hooks"
import type { ServiceMetrics } from "./ServiceMetrics.js"

export const STORE_SPAN_PREFIX = "kasko.store."

const observerOf = (metrics: ServiceMetrics, name: string): ((seconds: number) => void) | undefined => {
  if (name === QuotingService.PRICING_SPAN) return (seconds) => metrics.pricingDuration.observe(seconds)
  if (!name.startsWith(STORE_SPAN_PREFIX)) return undefined
  const [store = "", operation = ""] = name.slice(STORE_SPAN_PREFIX.length).split(".")
  const histogram = metrics.storeCallDuration.labels(store, operation)
  return (seconds) => histogram.observe(seconds)
}

export const timingTracer = (base: Tracer.Tracer, metrics: ServiceMetrics): Tracer.Tracer => {
  // one observer per span name, looked up once
  const observers = new Map<string, ((seconds: number) => void) | undefined>()
  return Tracer.make({
    span: (options) => {
      const span = base.span(options)
      const name = options.name
      if (!observers.has(name)) observers.set(name, observerOf(metrics, name))
      const observe = observers.get(name)
      if (observe === undefined) return span
      const started = performance.now()
      const end = span.end
      span.end = (endTime, exit) => {
        observe((performance.now() - started) / 1000)
        end.call(span, endTime, exit)
      }
      return span
    },
    ...(base.context === undefined ? {} : { context: base.context })
  })
}
