/** Idempotency-Key on quote creation: retries never duplicate a quote. */
import { Examples } from "@kasko/core"
import Database from "better-sqlite3"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { serviceWithPartners, type PartnerCredentials } from "./credentials.js"

const DAY = 24 * 60 * 60 * 1000
const service = serviceWithPartners("idempotency", ["alice-leasing", "bob-biler"])

const create = (partner: PartnerCredentials, key: string | undefined, body: unknown = Examples.quoteRequest()) =>
  service.client.request("POST", "/insurance/car/quotes", {
    body,
    headers: { ...partner.headers, ...(key === undefined ? {} : { "idempotency-key": key }) }
  })

const storedQuotes = (partnerId: string) => {
  const database = new Database(join(service.directory.path, "kasko.db"), { readonly: true })
  try {
    return (
      database.prepare("SELECT count(*) AS count FROM quotes WHERE partner_id = ?").get(partnerId) as { count: number }
    ).count
  } finally {
    database.close()
  }
}

describe("Idempotency-Key", () => {
  it("answers a replay with the original quote and creates no other", async () => {
    const before = storedQuotes("alice-leasing")
    const first = await create(service.partners["alice-leasing"]!, "lease-2026-0042-attempt")
    const replay = await create(service.partners["alice-leasing"]!, "lease-2026-0042-attempt")
    expect(first.status).toBe(200)
    expect(replay.status).toBe(200)
    expect(replay.text).toBe(first.text)
    expect(storedQuotes("alice-leasing")).toBe(before + 1)
  })

  it("answers the same key with a different body with 422, storing nothing", async () => {
    await create(service.partners["alice-leasing"]!, "key-with-body-a")
    const before = storedQuotes("alice-leasing")
    const other = await create(
      service.partners["alice-leasing"]!,
      "key-with-body-a",
      Examples.quoteRequest(Examples.standardParameters({ vehicle_price: "450000" }))
    )
    expect(other.status).toBe(422)
    expect(other.headers.get("content-type")).toContain("application/problem+json")
    expect(other.body).toMatchObject({
      title: "Unprocessable Entity",
      status: 422,
      type: expect.stringContaining("idempotency-key-reused")
    })
    expect(storedQuotes("alice-leasing")).toBe(before)
  })

  it("creates exactly one quote from 20 concurrent requests with one key", async () => {
    const before = storedQuotes("bob-biler")
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => create(service.partners["bob-biler"]!, "burst-0001"))
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200))
    expect(new Set(answers.map((answer) => answer.body.quote_id)).size).toBe(1)
    expect(storedQuotes("bob-biler")).toBe(before + 1)
  })

  it("keeps keys per partner: another partner's same key creates its own quote", async () => {
    const mine = await create(service.partners["alice-leasing"]!, "shared-key")
    const theirs = await create(service.partners["bob-biler"]!, "shared-key")
    expect(theirs.status).toBe(200)
    expect(theirs.body.quote_id).not.toBe(mine.body.quote_id)
  })

  it("forgets a key after 24 hours", async () => {
    const first = await create(service.partners["alice-leasing"]!, "day-old-key")
    service.server.adjustClock(DAY + 1)
    try {
      const later = await create(service.partners["alice-leasing"]!, "day-old-key")
      expect(later.status).toBe(200)
      expect(later.body.quote_id).not.toBe(first.body.quote_id)
    } finally {
      service.server.adjustClock(-(DAY + 1))
    }
  })

  it("rejects a malformed key with a violation naming the header", async () => {
    const answer = await create(service.partners["alice-leasing"]!, "x".repeat(256))
    expect(answer.status).toBe(400)
    expect(answer.body.violations).toEqual([
      { field: "Idempotency-Key", message: "must be 1–255 visible ASCII characters" }
    ])
  })

  it("accepts a key on activation, which is idempotent anyway", async () => {
    const created = await create(service.partners["alice-leasing"]!, undefined)
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await service.client.request("POST", `/insurance/car/quotes/${created.body.quote_id}/activation`, {
        headers: { ...service.partners["alice-leasing"]!.headers, "idempotency-key": "activate-once" }
      })
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({})
    }
  })
})
