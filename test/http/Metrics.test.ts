/**
 * Prometheus metrics on their own listener (KASKO_METRICS_PORT): scraped
 * before and after known traffic, every figure moved by exactly what that
 * traffic does — requests by operation, status and environment (these
 * partners' keys are production's), in flight back to zero,
 * quotes created and activated, pricings, store calls, the SQLite group
 * commits' quotes, webhook attempts and their lag — and the Node runtime's
 * own metrics are there. The partner-facing port serves no metrics.
 */
import { Examples } from "@kasko/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { kaskoWith, temporaryDirectory } from "../support.js"
import { type Receiver, startReceiver } from "../webhooks/Receiver.js"
import { scrape as scrapeMetrics, scrapeUntil } from "./Prometheus.js"
import { startTestService, type TestService } from "./support.js"

const ENVIRONMENT = { KASKO_METRICS_PORT: "0", KASKO_WEBHOOKS_ALLOW_INSECURE: "true" }

describe("metrics", () => {
  const directory = temporaryDirectory("kasko-metrics-")
  let test: TestService
  let receiver: Receiver
  let metricsUrl: string
  const scrape = () => scrapeMetrics(test.service.metricsPort)
  const post = (path: string, body: unknown) =>
    fetch(`${test.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })

  beforeAll(async () => {
    receiver = await startReceiver()
    const environment = { ...ENVIRONMENT, KASKO_DATA_DIR: directory.path }
    await kaskoWith(environment, "partners", "add", "--id", "partner-a", "--name", "Partner A A/S")
    await kaskoWith(environment, "webhooks", "add", "--partner", "partner-a", "--url", receiver.url)
    test = await startTestService({ dataDirectory: directory.path, environment: ENVIRONMENT })
    metricsUrl = `http://127.0.0.1:${test.service.metricsPort}/metrics`
  })
  afterAll(async () => {
    await test.stop()
    await receiver.close()
    directory.remove()
  })

  it("move by what the traffic did", async () => {
    const before = await scrape()
    const quotes = []
    for (let count = 0; count < 3; count++) {
      const answer = await post("/insurance/car/quotes", Examples.quoteRequest())
      expect(answer.status).toBe(200)
      quotes.push((await answer.json()) as { quote_id: string })
    }
    expect((await post("/insurance/car/quotes", { product: "no-such-thing" })).status).toBe(400)
    for (let count = 0; count < 2; count++)
      expect((await post("/insurance/car/offers", Examples.offerRequest())).status).toBe(200)
    expect((await fetch(`${test.url}/insurance/car/quotes/${quotes[0]!.quote_id}`)).status).toBe(200)
    // the second activation changes nothing
    for (let count = 0; count < 2; count++)
      expect((await post(`/insurance/car/quotes/${quotes[0]!.quote_id}/activation`, {})).status).toBe(200)
    // the dispatcher delivers the three creations and the activation
    await receiver.receivedAtLeast(4)
    expect(receiver.received).toHaveLength(4)
    const after = await scrapeUntil(
      test.service.metricsPort,
      (samples) => (samples.get('kasko_webhook_attempts_total{outcome="delivered"}') ?? 0) >= 4
    )

    const moved = (sample: string) => (after.get(sample) ?? 0) - (before.get(sample) ?? 0)
    expect(moved('kasko_http_requests_total{operation="createQuote",status="200",environment="production"}')).toBe(3)
    expect(moved('kasko_http_requests_total{operation="createQuote",status="400",environment="production"}')).toBe(1)
    expect(moved('kasko_http_requests_total{operation="createOffer",status="200",environment="production"}')).toBe(2)
    expect(moved('kasko_http_requests_total{operation="getQuote",status="200",environment="production"}')).toBe(1)
    expect(moved('kasko_http_requests_total{operation="activateQuote",status="200",environment="production"}')).toBe(2)
    expect(
      moved('kasko_http_request_duration_seconds_count{operation="createQuote",status="200",environment="production"}')
    ).toBe(3)
    expect(
      moved(
        'kasko_http_request_duration_seconds_bucket{le="+Inf",operation="createQuote",status="200",environment="production"}'
      )
    ).toBe(3)
    expect(
      moved('kasko_http_request_duration_seconds_sum{operation="createQuote",status="200",environment="production"}')
    ).toBeGreaterThan(0)
    expect(after.get("kasko_http_requests_in_flight")).toBe(0)

    expect(moved('kasko_quotes_created_total{environment="production"}')).toBe(3)
    expect(moved('kasko_quotes_activated_total{environment="production"}')).toBe(1)
    // three quotes and two offers priced; the bad request never reached pricing
    expect(moved("kasko_pricing_duration_seconds_count")).toBe(5)
    expect(moved("kasko_sqlite_group_commit_quotes_sum")).toBe(3)
    expect(moved("kasko_sqlite_group_commit_quotes_count")).toBe(3)
    // the retrieval, and each activation's look at the quote before it marks it, read without the worksheet
    expect(moved('kasko_store_call_duration_seconds_count{store="quotes",operation="findWithoutWorksheet"}')).toBe(3)
    expect(moved('kasko_store_call_duration_seconds_count{store="quotes",operation="find"}')).toBe(0)
    // the second activation finds the quote activated and marks nothing
    expect(moved('kasko_store_call_duration_seconds_count{store="quotes",operation="markActivated"}')).toBe(1)

    expect(moved('kasko_webhook_attempts_total{outcome="delivered"}')).toBe(4)
    expect(moved("kasko_webhook_delivery_lag_seconds_count")).toBe(4)
    expect(after.get("kasko_webhook_pending_deliveries")).toBe(0)
    expect(after.get("kasko_webhook_outbox_oldest_pending_seconds")).toBe(0)
    // on SQLite: no PostgreSQL pool to show
    expect([...after.keys()].filter((sample) => sample.startsWith("kasko_postgres_"))).toEqual([])
    expect(after.has("process_cpu_user_seconds_total")).toBe(true)
    expect(after.has("nodejs_heap_size_used_bytes")).toBe(true)
    expect(after.has("nodejs_eventloop_lag_p99_seconds")).toBe(true)
  })

  it("show what waits in the outbox: a delivery the endpoint refuses is pending, its event ever older", async () => {
    receiver.answerWith(503)
    try {
      expect((await post("/insurance/car/quotes", Examples.quoteRequest())).status).toBe(200)
      const attempted = await scrapeUntil(
        test.service.metricsPort,
        (samples) => (samples.get('kasko_webhook_attempts_total{outcome="retry"}') ?? 0) >= 1
      )
      expect(attempted.get('kasko_webhook_attempts_total{outcome="retry"}')).toBeGreaterThanOrEqual(1)
      test.adjustClock(120_000)
      // an exposition serves the scrapes of a second: the next one shows the clock moved
      const samples = await scrapeUntil(
        test.service.metricsPort,
        (read) => (read.get("kasko_webhook_outbox_oldest_pending_seconds") ?? 0) >= 120
      )
      expect(samples.get("kasko_webhook_pending_deliveries")).toBe(1)
      expect(samples.get("kasko_webhook_outbox_oldest_pending_seconds")).toBeGreaterThanOrEqual(120)
    } finally {
      receiver.answerWith(204)
    }
  })

  it("are served on their own port only: the partner API has no /metrics, the metrics port nothing else", async () => {
    expect((await fetch(`${test.url}/metrics`)).status).toBe(404)
    expect((await fetch(metricsUrl.replace("/metrics", "/insurance/car/quotes"))).status).toBe(404)
  })

  it("are off unless KASKO_METRICS_PORT is set", async () => {
    const plain = await startTestService()
    try {
      expect(plain.service.metricsPort).toBeUndefined()
    } finally {
      await plain.stop()
    }
  })
})
