/**
 * `/webhooks/deliveries` with scope `webhooks:manage`: a partner sees its deliveries over HTTP — state, attempts,
 * the last error, the next attempt — replays a dead-lettered one, and recovers every dead letter since a time;
 * another partner sees none of them and cannot replay them. Every answer is checked against the served OpenAPI
 * document.
 */
import { Examples } from "@kasko/core"
import Database from "better-sqlite3"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Receiver, startReceiver } from "../webhooks/Receiver.js"
import { serviceWithPartners } from "./credentials.js"

const service = serviceWithPartners("webhook-deliveries", ["alice-leasing", "bob-dealer"], {
  KASKO_WEBHOOKS_ALLOW_INSECURE: "true"
})
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

const alice = () => service.partners["alice-leasing"]!.headers
const bob = () => service.partners["bob-dealer"]!.headers
const deliveriesOf = async (headers: Record<string, string>) => {
  const answer = await service.client.request("GET", "/webhooks/deliveries", { headers })
  expect(answer.status).toBe(200)
  expect(answer.headers.get("cache-control")).toContain("no-store")
  return answer.body.deliveries as Array<Record<string, unknown>>
}
/** Reads, every 100 ms, until the value holds; no give-up but the test's own time. */
const eventually = async <A>(read: () => Promise<A>, holds: (value: A) => boolean): Promise<A> => {
  for (;;) {
    const value = await read()
    if (holds(value)) return value
    await new Promise((wait) => setTimeout(wait, 100))
  }
}
/** What a delivery's every retry failing for days comes to: dead-lettered (the retry window is the outbox's). */
const deadLetterAll = () => {
  const database = new Database(join(service.directory.path, "kasko.db"))
  try {
    database.prepare("UPDATE webhook_deliveries SET state = 'dead_lettered', next_attempt_at = NULL").run()
  } finally {
    database.close()
  }
}
const createQuote = async () =>
  expect(
    (
      await service.client.request("POST", "/insurance/car/quotes", {
        body: Examples.quoteRequest(),
        headers: alice()
      })
    ).status
  ).toBe(200)

describe("webhook deliveries over HTTP", () => {
  it("lists a failing delivery with its error and next attempt, replays it once dead-lettered, and it is delivered", async () => {
    receiver.answerWith(503)
    const subscribed = await service.client.request("POST", "/webhooks/subscriptions", {
      body: { url: receiver.url, event_types: ["quote.created"] },
      headers: alice()
    })
    expect(subscribed.status).toBe(200)
    await createQuote()
    const [failing] = await eventually(
      () => deliveriesOf(alice()),
      (deliveries) => deliveries.length > 0 && Number(deliveries[0]!["attempts"]) > 0
    )
    expect(failing).toMatchObject({
      subscription_id: subscribed.body.subscription_id,
      event_type: "quote.created",
      url: receiver.url,
      state: "pending",
      attempts: 1,
      last_error: "answered 503",
      last_attempt_at: expect.stringMatching(/Z$/),
      next_attempt_at: expect.stringMatching(/Z$/),
      attempt_log: [{ at: failing!["last_attempt_at"], status_code: 503, error: "answered 503" }]
    })
    expect(await deliveriesOf(bob())).toEqual([])

    const replayPath = `/webhooks/deliveries/${failing!["delivery_id"]}/replay`
    // pending is not dead-lettered: nothing to replay yet, and the answer says so — not the 404 of a wrong id
    const whilePending = await service.client.request("POST", replayPath, { headers: alice() })
    expect(whilePending.status).toBe(409)
    expect(whilePending.headers.get("content-type")).toContain("application/problem+json")
    expect(whilePending.body).toEqual({
      type: "https://kasko.example/problems/delivery-not-replayable",
      title: "Conflict",
      status: 409,
      detail: "The delivery is pending; only a dead-lettered delivery can be replayed."
    })
    // and the document lists that answer for the operation, as it is
    const documented = service.client.document.paths["/webhooks/deliveries/{delivery_id}/replay"]!["post"].responses
    expect(documented["409"].content["application/problem+json"].example).toEqual(whilePending.body)
    const unknown = await service.client.request("POST", "/webhooks/deliveries/dlv_unknown/replay", {
      headers: alice()
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body).not.toHaveProperty("detail")
    deadLetterAll()
    expect((await service.client.request("POST", replayPath, { headers: bob() })).status).toBe(404)
    receiver.answerWith(204)
    const replayed = await service.client.request("POST", replayPath, { headers: alice() })
    expect(replayed.status).toBe(200)
    expect(replayed.body).toEqual({})
    const [delivered] = await eventually(
      () => deliveriesOf(alice()),
      (deliveries) => deliveries[0]?.["state"] === "delivered"
    )
    expect(delivered).toMatchObject({
      delivery_id: failing!["delivery_id"],
      state: "delivered",
      attempts: 2,
      attempt_log: [
        { at: failing!["last_attempt_at"], status_code: 503, error: "answered 503" },
        { at: delivered!["last_attempt_at"], status_code: 204 }
      ]
    })
    expect(delivered).not.toHaveProperty("next_attempt_at")
    const again = await service.client.request("POST", replayPath, { headers: alice() })
    expect(again.status).toBe(409)
    expect(again.body.detail).toBe("The delivery is delivered; only a dead-lettered delivery can be replayed.")
  })

  it("recovers the dead letters made since a time, and only the calling partner's", async () => {
    receiver.answerWith(503)
    await createQuote()
    await createQuote()
    await eventually(
      () => deliveriesOf(alice()),
      (deliveries) => deliveries.filter((delivery) => delivery["state"] === "pending").length === 2
    )
    deadLetterAll()
    const recover = (headers: Record<string, string>, body: unknown) =>
      service.client.request("POST", "/webhooks/deliveries/recover", { body, headers })
    expect((await recover(bob(), { since: "2000-01-01T00:00:00Z" })).body).toEqual({ replayed: 0, more: false })
    expect((await recover(alice(), { since: "2999-01-01T00:00:00Z" })).body).toEqual({ replayed: 0, more: false })
    // the first test's delivery, dead-lettered again, is older than these two but still since 2000: three
    const recovered = await recover(alice(), { since: "2000-01-01T00:00:00Z" })
    expect(recovered.status).toBe(200)
    expect(recovered.body).toEqual({ replayed: 3, more: false })
    expect((await deliveriesOf(alice())).map((delivery) => delivery["state"])).not.toContain("dead_lettered")
  })

  it("shows a subscription its endpoint disabled (410 Gone) as disabled with the reason, until it is enabled", async () => {
    receiver.answerWith(410)
    const subscribed = await service.client.request("POST", "/webhooks/subscriptions", {
      body: { url: receiver.url, event_types: ["quote.created"] },
      headers: bob()
    })
    const quote = await service.client.request("POST", "/insurance/car/quotes", {
      body: Examples.quoteRequest(),
      headers: bob()
    })
    expect(quote.status).toBe(200)
    const subscriptionsOf = async () =>
      (await service.client.request("GET", "/webhooks/subscriptions", { headers: bob() })).body.subscriptions
    const [disabled] = await eventually(subscriptionsOf, ([first]) => first?.state === "disabled")
    expect(disabled).toMatchObject({
      subscription_id: subscribed.body.subscription_id,
      state: "disabled",
      disabled_reason: "the endpoint answered 410 Gone",
      disabled_at: expect.stringMatching(/Z$/)
    })
    const enablePath = `/webhooks/subscriptions/${subscribed.body.subscription_id}/enable`
    // its undelivered event was dead-lettered with it, and waits for the subscription to be enabled
    const [deadLetter] = await eventually(
      () => deliveriesOf(bob()),
      ([first]) => first?.["state"] === "dead_lettered"
    )
    const waiting = await service.client.request("POST", `/webhooks/deliveries/${deadLetter!["delivery_id"]}/replay`, {
      headers: bob()
    })
    expect(waiting.status).toBe(409)
    expect(waiting.body.detail).toBe(
      `The delivery is dead_lettered, but its subscription ${subscribed.body.subscription_id} is disabled: enable it (POST ${enablePath}), then replay the delivery.`
    )
    expect((await service.client.request("POST", enablePath, { headers: alice() })).status).toBe(404)
    const enabled = await service.client.request("POST", enablePath, { headers: bob() })
    expect(enabled.status).toBe(200)
    expect(enabled.body).toEqual({
      subscription_id: subscribed.body.subscription_id,
      url: receiver.url,
      event_types: ["quote.created"],
      created_at: subscribed.body.created_at,
      state: "enabled"
    })
  })

  it.each([
    [{}, "since", "is required"],
    [{ since: "yesterday" }, "since", "ISO 8601"],
    // dates Date.parse would roll over into the next month or day (issue 43)
    [{ since: "2026-02-31T00:00:00Z" }, "since", "a real instant"],
    [{ since: "2026-11-31T00:00:00Z" }, "since", "a real instant"],
    [{ since: "2026-03-02T24:00:00Z" }, "since", "a real instant"],
    [{ since: "2026-03-01T00:00:00Z", before: "x" }, "before", "is not a member"]
  ])("refuses the recovery request %j with 400 naming %s", async (body, field, message) => {
    const answer = await service.client.request("POST", "/webhooks/deliveries/recover", { body, headers: alice() })
    expect(answer.status).toBe(400)
    expect(answer.body.violations).toEqual(
      expect.arrayContaining([expect.objectContaining({ field, message: expect.stringContaining(message) })])
    )
  })
})
