/**
 * The gauges a scrape reads from the stores show what that scrape read: the
 * outbox's backlog as its own query answered (never the previous scrape's),
 * one query for both backlog gauges, and the pool as it was before the
 * scrape's own query joined the queue for a connection. Only the metrics of
 * the store in use are served. Every label set known in advance is there at 0
 * before its first event, what a key's requests do is counted in the key's
 * environment, and no gauge is named as a counter.
 */
import type { EventOutbox } from "@kasko/core"
import { documentedStatuses, OPERATIONS } from "@kasko/express"
import { TOOL_NAMES } from "@kasko/mcp"
import { setImmediate as nextTurn } from "node:timers/promises"
import { expect, it } from "vitest"
import {
  boundedReading,
  makeServiceMetrics,
  requestObserverOf,
  toolCallObserverOf,
  webhookObserverOf
} from "../src/ServiceMetrics.js"

const backlog = (pending: number, oldestAt: number | undefined): EventOutbox.OutboxBacklog => ({
  pending_deliveries: pending,
  oldest_undelivered_at: oldestAt
})

/** Scrapes as the metrics listener does, and answers the samples of `names`. */
const scrape = async (metrics: ReturnType<typeof makeServiceMetrics>, ...names: Array<string>) => {
  const text = await metrics.registry.metrics()
  return names.map((name) => Number(text.match(new RegExp(`^${name} (\\S+)$`, "m"))?.[1]))
}

it("shows the backlog this scrape read, both gauges from one query", async () => {
  const metrics = makeServiceMetrics("sqlite")
  const answers = [backlog(3, 1_000), backlog(0, undefined)]
  let reads = 0
  metrics.watchBacklog(
    boundedReading(async () => {
      const answer = answers[reads++]!
      // a database answers later than the scrape asks: on a later turn
      await nextTurn()
      return { backlog: answer, now: 61_000 }
    }, 500)
  )
  const gauges = ["kasko_webhook_pending_deliveries", "kasko_webhook_outbox_oldest_pending_seconds"]
  expect(await scrape(metrics, ...gauges)).toEqual([3, 60])
  expect(reads).toBe(1)
  expect(await scrape(metrics, ...gauges)).toEqual([0, 0])
  expect(reads).toBe(2)
})

it("does not count the scrape's own backlog query among the queries waiting for a pool connection", async () => {
  const metrics = makeServiceMetrics("postgres")
  // the pool as pg-pool reports it: a query asked for while every connection is checked out waits
  let waiting = 0
  metrics.watchPool(() => ({ total: 10, idle: 0, waiting }))
  metrics.watchBacklog(async () => {
    waiting++
    await nextTurn()
    waiting--
    return { backlog: backlog(0, undefined), now: 0 }
  })
  expect(
    await scrape(metrics, "kasko_postgres_pool_waiting", 'kasko_postgres_pool_connections\\{state="in_use"\\}')
  ).toEqual([0, 10])
})

it("serves the metrics of the store the service runs on, not the other's", async () => {
  const names = async (store: "sqlite" | "postgres") =>
    [...(await makeServiceMetrics(store).registry.metrics()).matchAll(/^# TYPE (kasko_(?:sqlite|postgres)_\S+)/gm)].map(
      (match) => match[1]
    )
  expect(await names("sqlite")).toEqual(["kasko_sqlite_group_commit_quotes"])
  expect(await names("postgres")).toEqual(["kasko_postgres_pool_connections", "kasko_postgres_pool_waiting"])
})

it("measures a delivery's lag from the event's commit to the endpoint's 2xx, not to the attempt's start", async () => {
  const metrics = makeServiceMetrics("sqlite")
  const event = {
    event_id: "evt_1",
    type: "quote.created" as const,
    occurred_at: 10_000,
    partner_id: "p",
    quote_id: "q",
    payload: "{}"
  }
  // the attempt began 1 s after the commit; the endpoint answered 2xx 2.5 s after that
  const delivery = {
    delivery_id: "dlv_1",
    subscription_id: "whk_1",
    event,
    url: "https://hooks.example/",
    secret: "whsec_c2VjcmV0",
    attempts: 0,
    first_attempt_at: undefined,
    failing_since: undefined
  }
  webhookObserverOf(metrics)(delivery, { delivered: true, at: 11_000, status: 204 }, 13_500)
  expect(
    await scrape(metrics, "kasko_webhook_delivery_lag_seconds_sum", "kasko_webhook_delivery_lag_seconds_count")
  ).toEqual([3.5, 1])
})

it("counts from 0, before any event, every status the document lists for each operation and every webhook outcome", async () => {
  const text = await makeServiceMetrics("sqlite").registry.metrics()
  const samples = new Set(text.split("\n").filter((line) => !line.startsWith("#")))
  for (const operation of OPERATIONS) {
    // a public operation's requests are not authenticated; a key's operation's are, but for its 401
    const environments = operation.scope === undefined ? ["none"] : ["production", "sandbox"]
    for (const status of documentedStatuses(operation))
      for (const environment of status === 401 ? ["none"] : environments)
        expect(samples).toContain(
          `kasko_http_requests_total{operation="${operation.operationId}",status="${status}",environment="${environment}"} 0`
        )
    expect(samples).toContain(
      `kasko_http_request_duration_seconds_count{operation="${operation.operationId}",status="200",environment="${environments[0]}"} 0`
    )
  }
  for (const outcome of ["delivered", "retry", "dead_lettered"])
    expect(samples).toContain(`kasko_webhook_attempts_total{outcome="${outcome}"} 0`)
  for (const environment of ["production", "sandbox"]) {
    expect(samples).toContain(`kasko_http_requests_total{operation="mcp",status="200",environment="${environment}"} 0`)
    expect(samples).toContain(`kasko_quotes_created_total{environment="${environment}"} 0`)
    expect(samples).toContain(`kasko_quotes_activated_total{environment="${environment}"} 0`)
    for (const tool of TOOL_NAMES)
      for (const outcome of ["ok", "refused", "failed"])
        expect(samples).toContain(
          `kasko_mcp_tool_calls_total{tool="${tool}",outcome="${outcome}",environment="${environment}"} 0`
        )
  }
  for (const tool of TOOL_NAMES)
    expect(samples).toContain(`kasko_mcp_tool_call_duration_seconds_count{tool="${tool}",environment="production"} 0`)
})

it("labels what a key's requests do with its environment only: production, sandbox, or none", async () => {
  const text = await makeServiceMetrics("sqlite").registry.metrics()
  const values = new Set([...text.matchAll(/environment="([^"]*)"/g)].map((match) => match[1]))
  expect([...values].sort()).toEqual(["none", "production", "sandbox"])
})

it("counts and times MCP tool calls by tool, outcome and environment", async () => {
  const metrics = makeServiceMetrics("sqlite")
  const observer = toolCallObserverOf(metrics)
  observer.called("price_offer", "ok", 0.002, "production")
  observer.called("price_offer", "ok", 0.004, "production")
  observer.called("price_offer", "ok", 0.003, "sandbox")
  observer.called("create_quote", "refused", 0.001, "sandbox")
  expect(
    await scrape(
      metrics,
      'kasko_mcp_tool_calls_total\\{tool="price_offer",outcome="ok",environment="production"\\}',
      'kasko_mcp_tool_calls_total\\{tool="price_offer",outcome="ok",environment="sandbox"\\}',
      'kasko_mcp_tool_calls_total\\{tool="create_quote",outcome="refused",environment="sandbox"\\}',
      'kasko_mcp_tool_calls_total\\{tool="create_quote",outcome="refused",environment="production"\\}',
      'kasko_mcp_tool_call_duration_seconds_count\\{tool="price_offer",environment="production"\\}',
      'kasko_mcp_tool_call_duration_seconds_count\\{tool="price_offer",environment="sandbox"\\}'
    )
  ).toEqual([2, 1, 1, 0, 2, 1])
})

it("counts the partner API's requests under the environment of the key they were authenticated with, or none", async () => {
  const metrics = makeServiceMetrics("sqlite")
  const observer = requestObserverOf(metrics)
  for (const environment of ["production", "sandbox", "sandbox", undefined] as const) {
    observer.started()
    observer.answered("createOffer", environment === undefined ? 401 : 200, 0.001, environment)
  }
  expect(
    await scrape(
      metrics,
      'kasko_http_requests_total\\{operation="createOffer",status="200",environment="production"\\}',
      'kasko_http_requests_total\\{operation="createOffer",status="200",environment="sandbox"\\}',
      'kasko_http_requests_total\\{operation="createOffer",status="401",environment="none"\\}',
      'kasko_http_request_duration_seconds_count\\{operation="createOffer",status="200",environment="sandbox"\\}',
      "kasko_http_requests_in_flight"
    )
  ).toEqual([1, 2, 1, 2, 0])
})

it("names only counters `_total`, as promtool requires: not the gauges of Node's default metrics", async () => {
  const text = await makeServiceMetrics("sqlite").registry.metrics()
  const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => ({ name, type }))
  expect(types.map(({ name }) => name)).toContain("nodejs_active_handles")
  expect(types.filter(({ name, type }) => name!.endsWith("_total") && type !== "counter")).toEqual([])
})
