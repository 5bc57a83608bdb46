/** The failure log's lines: the reason at warn, dead letters at error, one line a minute per endpoint and kind. */
import type { EventOutbox } from "@kasko/core"
import { pino } from "pino"
import { expect, it } from "vitest"
import { webhookDisabledLogOf, webhookFailureLogOf } from "../src/WebhookFailureLog.js"

const deliveryTo = (subscriptionId: string, attempts = 0): EventOutbox.ClaimedDelivery => ({
  delivery_id: `dlv_${subscriptionId}_${attempts}`,
  subscription_id: subscriptionId,
  event: {
    event_id: "evt_1",
    type: "quote.created",
    occurred_at: 0,
    partner_id: "bilhuset",
    quote_id: "q",
    payload: "{}"
  },
  url: "http://127.0.0.2:9/hooks?token=partners-own",
  secret: "whsec_c2VjcmV0",
  attempts,
  first_attempt_at: undefined,
  failing_since: undefined
})

const failed = (at: number): EventOutbox.AttemptOutcome => ({
  delivered: false,
  at,
  error: "connect ECONNREFUSED 127.0.0.2:9",
  retryAt: at + 30_000
})

const capture = () => {
  const lines: Array<Record<string, unknown>> = []
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  return { lines, log: webhookFailureLogOf(logger) }
}

it("logs a failing endpoint at warn with the reason, at most once a minute, counting the failures between", () => {
  const { lines, log } = capture()
  for (const at of [0, 1_000, 30_000, 59_999]) log(deliveryTo("whk_a"), failed(at), at)
  log(deliveryTo("whk_b"), failed(2_000), 2_000)
  log(deliveryTo("whk_a", 3), failed(60_000), 60_000)
  expect(lines.map(({ level, subscription_id, failures }) => ({ level, subscription_id, failures }))).toEqual([
    { level: 40, subscription_id: "whk_a", failures: 1 },
    { level: 40, subscription_id: "whk_b", failures: 1 },
    { level: 40, subscription_id: "whk_a", failures: 4 }
  ])
  expect(lines[0]).toMatchObject({
    msg: "webhook delivery failed; it will be tried again",
    partner_id: "bilhuset",
    // the query is the partner's (it may hold a token), not the operator's log's
    endpoint: "http://127.0.0.2:9/hooks",
    error: "connect ECONNREFUSED 127.0.0.2:9",
    attempts: 1,
    next_attempt_at: "1970-01-01T00:00:30.000Z"
  })
  expect(lines[2]).toMatchObject({ attempts: 4 })
})

it("logs a dead letter at error even in the minute of a warn line, and nothing for a delivery", () => {
  const { lines, log } = capture()
  log(deliveryTo("whk_a"), failed(0), 0)
  log(deliveryTo("whk_a", 9), { delivered: false, at: 1_000, error: "answered 503", retryAt: undefined }, 1_000)
  log(deliveryTo("whk_a", 9), { delivered: false, at: 2_000, error: "answered 503", retryAt: undefined }, 2_000)
  log(deliveryTo("whk_a"), { delivered: true, at: 3_000, status: 204 }, 3_000)
  expect(lines.map(({ level, msg, error }) => ({ level, msg, error }))).toEqual([
    { level: 40, msg: "webhook delivery failed; it will be tried again", error: "connect ECONNREFUSED 127.0.0.2:9" },
    {
      level: 50,
      msg: "webhook delivery dead-lettered: the endpoint failed every attempt; replay it once fixed",
      error: "answered 503"
    }
  ])
})

it("logs a disabled subscription at error, with the reason and the way back", () => {
  const lines: Array<Record<string, unknown>> = []
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  webhookDisabledLogOf(logger)(deliveryTo("whk_a"), "the endpoint answered 410 Gone", 0)
  expect(lines).toEqual([
    expect.objectContaining({
      level: 50,
      subscription_id: "whk_a",
      partner_id: "bilhuset",
      endpoint: "http://127.0.0.2:9/hooks",
      reason: "the endpoint answered 410 Gone",
      disabled_at: "1970-01-01T00:00:00.000Z",
      msg: expect.stringContaining("POST /webhooks/subscriptions/{id}/enable")
    })
  ])
})
