/**
 * The service's tracer. With an OTLP endpoint configured, spans are exported
 * by @effect/opentelemetry's OtlpTracer (OTLP/HTTP with JSON, batched, flushed
 * when the service stops); with metrics on, the TimingTracer times kasko's
 * spans on the way. Neither: Effect's own tracer, and requests run in no span.
 */
import { FetchHttpClient } from "@effect/platform"
import { OtlpSerialization, OtlpTracer } from "@effect/opentelemetry"
import { Effect, Layer } from "effect"
import { type ServiceConfig, tracesUrlOf } from "./ServiceConfig.js"
import type { ServiceMetrics } from "./ServiceMetrics.js"
import { timingTracer } from "./TimingTracer.js"

export const tracerLayer = (config: ServiceConfig, metrics: ServiceMetrics | undefined): Layer.Layer<never> => {
  const url = tracesUrlOf(config)
  if (url === undefined)
    return metrics === undefined
      ? Layer.empty
      : Layer.setTracer(timingTracer(Effect.runSync(Effect.tracerWith(Effect.succeed)), metrics))
  return Layer.unwrapScoped(
    Effect.map(
      OtlpTracer.make({ url, resource: { serviceName: config.otelServiceName }, exportInterval: "1 second" }),
      (exporting) => Layer.setTracer(metrics === undefined ? exporting : timingTracer(exporting, metrics))
    )
  ).pipe(Layer.provide(Layer.merge(FetchHttpClient.layer, OtlpSerialization.layerJson)))
}
