/**
 * An event's payload is the JSON of its body, the quote as retrieval answers
 * it: the same bytes whether the quote's text was kept by a store or not.
 */
import { describe, expect, it } from "vitest"
import { quoteAnswer } from "../src/Examples.js"
import { quoteActivated, quoteCreated } from "../src/events/QuoteEvents.js"
import type { StoredQuote } from "../src/ports/QuoteStore.js"
import { retrievedForm } from "../src/quote/QuoteLifecycle.js"
import { sandboxOwnerOf } from "../src/partner/Sandbox.js"

const storedQuote = (): StoredQuote => {
  // a store keeps the content; its state is the stored facts'
  const { status: _status, expires_at: _expiresAt, ...quote } = quoteAnswer()
  return {
    quote_id: quote.quote_id,
    partner_id: "partner-a",
    quote_number: "1234 5678 9012",
    created_at: Date.parse("2026-03-02T09:00:00Z"),
    activated_at: null,
    tariff_version: "2026-01",
    quote,
    worksheet: {} as StoredQuote["worksheet"]
  }
}

const bodyOf = (stored: StoredQuote, type: string, occurredAt: string) =>
  JSON.stringify({
    id: `evt_${stored.quote_id}_${type.slice("quote.".length)}`,
    type,
    occurred_at: occurredAt,
    partner_id: stored.partner_id,
    quote_id: stored.quote_id,
    data: retrievedForm(stored)
  })

describe("a quote event's payload", () => {
  it("is the JSON of the event with the quote as retrieved, awaiting activation", () => {
    const stored = storedQuote()
    expect(quoteCreated(stored).payload).toBe(bodyOf(stored, "quote.created", "2026-03-02T09:00:00.000Z"))
    expect(JSON.parse(quoteCreated(stored).payload).data.quote).toMatchObject({
      status: "await_activation",
      expires_at: "2026-04-01T09:00:00.000Z"
    })
  })

  it("is the §2.10 form once activated", () => {
    const stored = { ...storedQuote(), activated_at: Date.parse("2026-03-02T10:00:00Z") }
    expect(quoteActivated(stored).payload).toBe(bodyOf(stored, "quote.activated", "2026-03-02T10:00:00.000Z"))
    expect(JSON.parse(quoteActivated(stored).payload).data.quote).toMatchObject({
      status: "activated",
      expires_at: "2026-04-01T09:00:00.000Z"
    })
  })
})

describe("a sandbox quote's events", () => {
  it("name the partner, say they are the sandbox's, and say its activation issued no policy", () => {
    const stored = { ...storedQuote(), partner_id: sandboxOwnerOf("partner-a") }
    const created = JSON.parse(quoteCreated(stored).payload)
    expect(created).toMatchObject({ partner_id: "partner-a", environment: "sandbox" })
    expect(created).not.toHaveProperty("policy_issued")
    expect(quoteCreated(stored).partner_id).toBe("sandbox:partner-a")
    const activated = JSON.parse(quoteActivated({ ...stored, activated_at: stored.created_at + 1 }).payload)
    expect(activated).toMatchObject({ partner_id: "partner-a", environment: "sandbox", policy_issued: false })
  })

  it("leave a production quote's events as they were, without the environment", () => {
    expect(JSON.parse(quoteCreated(storedQuote()).payload)).not.toHaveProperty("environment")
  })
})
