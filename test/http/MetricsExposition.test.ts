/**
 * The service's scrape as Prometheus judges it: `promtool check metrics`
 * finds nothing to say before any request and after some; before any
 * event every counter an alert reads is there at 0 for each label set known in
 * advance (so that increase() sees the first event); and every metric the
 * shipped alert rules read is served. Skipped, saying so, only outside CI
 * where promtool is not installed.
 */
import { Examples } from "@kasko/core"
import { documentedStatuses, OPERATIONS } from "@kasko/express"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseSamples, promtool, skipWithoutPromtool } from "./Prometheus.js"
import { startTestService, type TestService } from "./support.js"

const RULES = join(import.meta.dirname, "..", "..", "docs", "operations", "kasko-alerts.yml")

describe.skipIf(skipWithoutPromtool("the metrics' promtool check"))("the metrics, as promtool reads them", () => {
  let test: TestService
  let before: string
  const scrape = async () => (await fetch(`http://127.0.0.1:${test.service.metricsPort}/metrics`)).text()

  beforeAll(async () => {
    test = await startTestService({ environment: { KASKO_METRICS_PORT: "0" } })
    before = await scrape()
  })
  afterAll(() => test.stop())

  it("pass promtool check metrics before any request", () => {
    const checked = promtool(["check", "metrics"], before)
    expect(checked.output).toBe("")
    expect(checked.status).toBe(0)
  })

  it("count from 0, before any event, each status the document lists for each operation, and each webhook outcome", () => {
    const samples = parseSamples(before)
    for (const operation of OPERATIONS)
      for (const status of documentedStatuses(operation)) {
        // a public operation's requests, and a refused one's (401), are not authenticated: environment none
        const environment = operation.scope === undefined || status === 401 ? "none" : "production"
        expect(
          samples.get(
            `kasko_http_requests_total{operation="${operation.operationId}",status="${status}",environment="${environment}"}`
          )
        ).toBe(0)
      }
    for (const outcome of ["delivered", "retry", "dead_lettered"])
      expect(samples.get(`kasko_webhook_attempts_total{outcome="${outcome}"}`)).toBe(0)
  })

  it("pass promtool check metrics after requests", async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${test.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    expect((await post("/insurance/car/quotes", Examples.quoteRequest())).status).toBe(200)
    expect((await post("/insurance/car/quotes", { product: "no-such-thing" })).status).toBe(400)
    expect((await fetch(`${test.url}/insurance/car/quotes/no-such-quote`)).status).toBe(404)
    // an exposition serves the scrapes of a second
    let after = await scrape()
    // polled (every 50 ms) with no give-up but the test's own time
    while (!after.includes('kasko_http_requests_total{operation="getQuote",status="404",environment="production"} 1')) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      after = await scrape()
    }
    expect(
      parseSamples(after).get(
        'kasko_http_requests_total{operation="createQuote",status="200",environment="production"}'
      )
    ).toBe(1)
    const checked = promtool(["check", "metrics"], after)
    expect(checked.output).toBe("")
    expect(checked.status).toBe(0)
  })

  it("serve every metric the shipped alert rules read", () => {
    const served = new Set([...before.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]!))
    const read = new Set(
      [...readFileSync(RULES, "utf8").matchAll(/\b(?:kasko|nodejs|process)_\w+/g)].map((match) =>
        match[0].replace(/_(?:bucket|count|sum)$/, "")
      )
    )
    // the PostgreSQL pool's are served on PostgreSQL only (test/postgres/PoolMetrics.test.ts reads them)
    const expected = [...read].filter((name) => !name.startsWith("kasko_postgres_"))
    expect(expected).toEqual(expect.arrayContaining(["kasko_webhook_attempts_total", "process_start_time_seconds"]))
    expect(expected.filter((name) => !served.has(name))).toEqual([])
  })
})
