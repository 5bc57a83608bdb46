/**
 * `/webhooks/subscriptions` with scope `webhooks:manage`: a partner creates,
 * lists, rotates and deletes its own subscriptions; the secret is answered on
 * creation and rotation only; another partner's are not found; an endpoint
 * that is not public https is refused naming the field. Every answer is
 * checked against the served OpenAPI document.
 */
import { describe, expect, it } from "vitest"
import { addPartner, serviceWithPartners } from "./credentials.js"

const service = serviceWithPartners("webhook-subscriptions", ["alice-leasing", "bob-dealer", "carl-cars"], {
  KASKO_WEBHOOK_SUBSCRIPTIONS_PER_PARTNER: "3"
})

const SUBSCRIBE = { url: "https://hooks.alice.example/kasko", event_types: ["quote.created", "quote.expired"] }

describe("webhook subscriptions over HTTP", () => {
  it("creates a subscription answered with its secret, lists it without, rotates and deletes it", async () => {
    const alice = service.partners["alice-leasing"]!.headers
    const created = await service.client.request("POST", "/webhooks/subscriptions", { body: SUBSCRIBE, headers: alice })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ url: SUBSCRIBE.url, event_types: SUBSCRIBE.event_types })
    expect(created.body.subscription_id).toMatch(/^whk_/)
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(created.headers.get("cache-control")).toContain("no-store")

    const listed = await service.client.request("GET", "/webhooks/subscriptions", { headers: alice })
    expect(listed.body.subscriptions).toEqual([
      {
        subscription_id: created.body.subscription_id,
        url: SUBSCRIBE.url,
        event_types: SUBSCRIBE.event_types,
        created_at: created.body.created_at,
        state: "enabled"
      }
    ])

    const path = `/webhooks/subscriptions/${created.body.subscription_id}`
    const rotated = await service.client.request("POST", `${path}/secret`, { headers: alice })
    expect(rotated.status).toBe(200)
    expect(rotated.body.secret).toMatch(/^whsec_/)
    expect(rotated.body.secret).not.toBe(created.body.secret)

    expect((await service.client.request("DELETE", path, { headers: alice })).status).toBe(200)
    expect((await service.client.request("DELETE", path, { headers: alice })).status).toBe(404)
    expect((await service.client.request("GET", "/webhooks/subscriptions", { headers: alice })).body).toEqual({
      subscriptions: []
    })
  })

  it("keeps a partner's subscriptions its own: another partner lists none, and gets 404 for the id", async () => {
    const alice = service.partners["alice-leasing"]!.headers
    const bob = service.partners["bob-dealer"]!.headers
    const created = await service.client.request("POST", "/webhooks/subscriptions", { body: SUBSCRIBE, headers: alice })
    const path = `/webhooks/subscriptions/${created.body.subscription_id}`
    expect((await service.client.request("GET", "/webhooks/subscriptions", { headers: bob })).body).toEqual({
      subscriptions: []
    })
    expect((await service.client.request("POST", `${path}/secret`, { headers: bob })).status).toBe(404)
    expect((await service.client.request("DELETE", path, { headers: bob })).status).toBe(404)
    expect((await service.client.request("DELETE", path, { headers: alice })).status).toBe(200)
  })

  it.each([
    // the switch a developer needs for a local receiver is named in the refusals it lifts
    [
      { url: "http://hooks.alice.example/kasko", event_types: ["quote.created"] },
      "url",
      "must be an https URL (for local development only, the service's KASKO_WEBHOOKS_ALLOW_INSECURE=true allows it)"
    ],
    [
      { url: "https://127.0.0.1:8080/hooks", event_types: ["quote.created"] },
      "url",
      "must not point at a loopback, private or other special-purpose address (for local development only, the service's KASKO_WEBHOOKS_ALLOW_INSECURE=true allows it)"
    ],
    [
      { url: "https://169.254.169.254/latest/meta-data", event_types: ["quote.created"] },
      "url",
      "must not point at a loopback, private or other special-purpose address"
    ],
    [
      { url: "https://10.0.0.7/hooks", event_types: ["quote.created"] },
      "url",
      "must not point at a loopback, private or other special-purpose address"
    ],
    [{ url: "https://hooks.alice.example/kasko", event_types: [] }, "event_types", "must be a non-empty list"],
    [{ url: "https://hooks.alice.example/kasko", event_types: ["quote.deleted"] }, "event_types", "quote.deleted"],
    [{ event_types: ["quote.created"] }, "url", "is required"],
    [{ ...SUBSCRIBE, secret: "mine" }, "secret", "is not a member"]
  ])("refuses %j with 400 naming %s", async (body, field, message) => {
    const answer = await service.client.request("POST", "/webhooks/subscriptions", {
      body,
      headers: service.partners["alice-leasing"]!.headers
    })
    expect(answer.status).toBe(400)
    expect(answer.headers.get("content-type")).toContain("application/problem+json")
    expect(answer.body.violations).toEqual(
      expect.arrayContaining([expect.objectContaining({ field, message: expect.stringContaining(message) })])
    )
  })

  it("refuses a partner's subscription beyond the limit with 409 saying so; others' and a freed place are unaffected", async () => {
    const carl = service.partners["carl-cars"]!.headers
    const subscribe = (headers: Record<string, string>, index: number) =>
      service.client.request("POST", "/webhooks/subscriptions", {
        body: { ...SUBSCRIBE, url: `https://hooks.carl.example/${index}` },
        headers
      })
    const statuses = []
    for (let index = 0; index < 4; index++) statuses.push((await subscribe(carl, index)).status)
    expect(statuses).toEqual([200, 200, 200, 409])
    const refused = await subscribe(carl, 4)
    expect(refused.headers.get("content-type")).toContain("application/problem+json")
    expect(refused.body).toEqual({
      type: "https://kasko.example/problems/subscription-limit-reached",
      title: "Conflict",
      status: 409,
      detail:
        "A partner may have at most 3 webhook subscriptions: delete one (DELETE /webhooks/subscriptions/{subscription_id}) before adding another."
    })
    // another partner's are its own
    expect((await subscribe(service.partners["bob-dealer"]!.headers, 9)).status).toBe(200)
    // a deleted one frees its place
    const [first] = (await service.client.request("GET", "/webhooks/subscriptions", { headers: carl })).body
      .subscriptions as Array<{ subscription_id: string }>
    expect(
      (await service.client.request("DELETE", `/webhooks/subscriptions/${first!.subscription_id}`, { headers: carl }))
        .status
    ).toBe(200)
    expect((await subscribe(carl, 5)).status).toBe(200)
  })

  it("refuses a token without webhooks:manage with insufficient_scope", async () => {
    const reader = await addPartner(service.directory.path, "reader-only", "quotes:read")
    const answer = await service.client.request("GET", "/webhooks/subscriptions", { headers: reader.headers })
    expect(answer.status).toBe(401)
    expect(answer.headers.get("www-authenticate")).toContain('error="insufficient_scope"')
    expect(answer.headers.get("www-authenticate")).toContain('scope="webhooks:manage"')
  })
})
