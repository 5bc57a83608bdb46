/**
 * The service's tracer. With an OTLP endpoint configured, spans are exported
 * by Effect's OtlpTracer (OTLP/HTTP with JSON, batched, flushed when the
 * service stops); with metrics on, the TimingTracer times kasko's spans on the
 * way. Neither: the tracer is disabled, so the core's and the stores' spans
 * are not even made (a span costs about a tenth of an in-process offer).
 */
import { Effect, Layer, References, Tracer } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpExporter, OtlpSerialization, OtlpTracer } from "effect/observability"
import { type ServiceConfig, tracesUrlOf } from "./ServiceConfig.js"
import type { ServiceMetrics } from "./ServiceMetrics.js"
import { timingTracer } from "./TimingTracer.js"

export const tracerLayer = (config: ServiceConfig, metrics: ServiceMetrics | undefined): Layer.Layer<never> => {
  const url = tracesUrlOf(config)
  if (url === undefined)
    return metrics === undefined
      ? Layer.succeed(References.TracerEnabled, false)
      : Layer.succeed(Tracer.Tracer, timingTracer(Tracer.nativeTracer, metrics))
  return Layer.unwrap(
    Effect.map(
      OtlpTracer.make({ url, resource: { serviceName: config.otelServiceName }, exportInterval: "1 second" }),
      (exporting) => Layer.succeed(Tracer.Tracer, metrics === undefined ? exporting : timingTracer(exporting, metrics))
    )
  ).pipe(Layer.provide(Layer.mergeAll(FetchHttpClient.layer, OtlpSerialization.layerJson, OtlpExporter.layerFlusher)))
}
