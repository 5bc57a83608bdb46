/**
 * W3C Trace Context: the `traceparent` header a caller's own trace arrives
 * in (`00-<trace id>-<parent span id>-<flags>`), as the parent of the
 * request's span — so the partner's trace and kasko's are one. Anything
 * malformed is ignored and the request starts a trace of its own.
 */
import { Tracer } from "effect"

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/
const INVALID_TRACE_ID = "0".repeat(32)
const INVALID_SPAN_ID = "0".repeat(16)

export const parentSpanOf = (header: string | ReadonlyArray<string> | undefined): Tracer.ExternalSpan | undefined => {
  if (typeof header !== "string") return undefined
  const [, traceId, spanId, flags] = TRACEPARENT.exec(header.trim()) ?? []
  if (traceId === undefined || spanId === undefined || flags === undefined) return undefined
  if (traceId === INVALID_TRACE_ID || spanId === INVALID_SPAN_ID) return undefined
  // bit 0 of the flags: the caller sampled this trace
  return Tracer.externalSpan({ traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 })
}
