/**
 * OpenTelemetry traces: with OTEL_EXPORTER_OTLP_ENDPOINT set, the service
 * exports its spans over OTLP/HTTP to an in-process receiver. A request is one
 * server span continuing the caller's W3C `traceparent`, with child spans for
 * authentication, decoding, pricing and each store call; the request's log
 * line carries its trace id. Without the variable, requests run in no span.
 */
import { Examples } from "@kasko/core"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestService, type TestService } from "./support.js"

interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ key: string; value: Record<string, unknown> }>
}

interface ExportRequest {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: Record<string, unknown> }> }
    scopeSpans: Array<{ spans: Array<ReceivedSpan> }>
  }>
}

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
const CALLER_SPAN_ID = "00f067aa0ba902b7"

/** An OTLP/HTTP collector for traces: keeps every export request it gets. */
const startCollector = async () => {
  const exports: Array<ExportRequest> = []
  const paths: Array<string> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      paths.push(request.url ?? "")
      exports.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as ExportRequest)
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    spans: () =>
      exports.flatMap((request) => request.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))),
    serviceNames: () =>
      exports.flatMap((request) =>
        request.resourceSpans.flatMap((r) =>
          r.resource.attributes.filter((a) => a.key === "service.name").map((a) => a.value["stringValue"])
        )
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const attribute = (span: ReceivedSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

describe("traces", () => {
  let collector: Awaited<ReturnType<typeof startCollector>>
  let test: TestService
  let quoteLogLine: Record<string, unknown> | undefined

  beforeAll(async () => {
    collector = await startCollector()
    test = await startTestService({
      environment: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: "kasko-under-test" }
    })
    const answer = await fetch(`${test.url}/insurance/car/quotes`, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` },
      body: JSON.stringify(Examples.quoteRequest())
    })
    expect(answer.status).toBe(200)
    const requestId = answer.headers.get("x-request-id")
    quoteLogLine = test.logLines.find((line) => line["request_id"] === requestId && line["msg"] === "request")
    await fetch(`${test.url}/insurance/car/offers`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(Examples.offerRequest())
    })
    // stopping flushes what is not exported yet
    await test.stop()
  })
  afterAll(() => collector.close())

  it("are exported to the collector's /v1/traces, named by OTEL_SERVICE_NAME", () => {
    expect(collector.paths.length).toBeGreaterThan(0)
    expect(new Set(collector.paths)).toEqual(new Set(["/v1/traces"]))
    expect(new Set(collector.serviceNames())).toEqual(new Set(["kasko-under-test"]))
  })

  it("make a request one server span in the caller's trace, with its children", () => {
    const spans = collector.spans().filter((span) => span.traceId === TRACE_ID)
    const request = spans.find((span) => span.name === "POST /insurance/car/quotes")
    expect(request).toBeDefined()
    expect(request!.parentSpanId).toBe(CALLER_SPAN_ID)
    // SPAN_KIND_SERVER
    expect(request!.kind).toBe(2)
    expect(attribute(request!, "kasko.operation")).toBe("createQuote")
    expect(Number(attribute(request!, "http.response.status_code"))).toBe(200)

    // every other span of the trace descends from the request's
    const byId = new Map(spans.map((span) => [span.spanId, span]))
    const descendsFromRequest = (span: ReceivedSpan): boolean => {
      const parent = span.parentSpanId === undefined ? undefined : byId.get(span.parentSpanId)
      return parent !== undefined && (parent === request || descendsFromRequest(parent))
    }
    const children = spans.filter((span) => span !== request)
    expect(children.every(descendsFromRequest)).toBe(true)
    const names = children.map((span) => span.name)
    expect(names).toEqual(expect.arrayContaining(["kasko.authenticate", "kasko.decode", "kasko.pricing"]))
    expect(names.some((name) => name.startsWith("kasko.store.quotes."))).toBe(true)
  })

  it("start a trace of their own without a traceparent", () => {
    const offer = collector.spans().find((span) => span.name === "POST /insurance/car/offers")
    expect(offer).toBeDefined()
    expect(offer!.traceId).not.toBe(TRACE_ID)
    expect(offer!.parentSpanId ?? "").toBe("")
  })

  it("put the trace id in the request's log line", () => {
    expect(quoteLogLine?.["trace_id"]).toBe(TRACE_ID)
  })
})

describe("without an OTLP endpoint", () => {
  it("log no trace id", async () => {
    const plain = await startTestService()
    try {
      const answer = await fetch(`${plain.url}/insurance/car/offers`, {
        method: "POST",
        headers: { "content-type": "application/json", traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` },
        body: JSON.stringify(Examples.offerRequest())
      })
      expect(answer.status).toBe(200)
      const line = plain.logLines.find((each) => each["msg"] === "request")
      expect(line).toBeDefined()
      expect(line).not.toHaveProperty("trace_id")
    } finally {
      await plain.stop()
    }
  })
})

describe("traces and metrics together", () => {
  it("export the spans and time them into the metrics, the request answering as ever", async () => {
    const collector = await startCollector()
    const both = await startTestService({
      environment: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, KASKO_METRICS_PORT: "0" }
    })
    try {
      const answer = await fetch(`${both.url}/insurance/car/quotes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(Examples.quoteRequest())
      })
      expect(answer.status).toBe(200)
      const metrics = await (await fetch(`http://127.0.0.1:${both.service.metricsPort}/metrics`)).text()
      expect(metrics).toMatch(/^kasko_pricing_duration_seconds_count 1$/m)
      expect(metrics).toMatch(
        /^kasko_store_call_duration_seconds_count\{store="quotes",operation="insert(Idempotent)?"\} 1$/m
      )
    } finally {
      await both.stop()
      await collector.close()
    }
    expect(collector.spans().map((span) => span.name)).toEqual(
      expect.arrayContaining(["POST /insurance/car/quotes", "kasko.pricing", "kasko.decode"])
    )
  })
})
