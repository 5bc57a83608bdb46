/**
 * A quote's row holds what the quote is: read back, it is the quote that was written, in either state.
 */
import { Examples, type QuoteStore } from "@kasko/core"
import { QuoteLifecycle } from "@kasko/core/storage"
import { describe, expect, it } from "vitest"
import { quoteOfRow, quoteRowOf } from "../src/StoredRows.js"

// a store keeps the content; the answers add its state
const { status: _status, expires_at: _expiresAt, ...quote } = Examples.quoteAnswer()
const stored = {
  quote_id: quote.quote_id,
  partner_id: "partner-a",
  quote_number: "1234 5678 9012",
  created_at: Date.parse("2026-03-02T09:00:00Z"),
  activated_at: null,
  tariff_version: "2026-01",
  quote,
  worksheet: { lines: ["a line"] }
} as unknown as QuoteStore.StoredQuote

describe("a quote's row", () => {
  it("gives back the quote written, its content and worksheet as JSON text", () => {
    const row = quoteRowOf(stored)
    expect(row.quote_json).toBe(JSON.stringify(stored.quote))
    expect(row.worksheet_json).toBe(JSON.stringify(stored.worksheet))
    expect(row).toMatchObject({ policy_number: quote.policies[0]!.policy_number, price_amount: quote.price.amount })
    expect(quoteOfRow(row)).toStrictEqual(stored)
  })

  it("is retrieved in the §2.9 form awaiting activation, and in the §2.10 form once activated", () => {
    const awaiting = QuoteLifecycle.retrievedForm(quoteOfRow(quoteRowOf(stored)))
    expect(awaiting).toEqual({
      state: "await_activation",
      quote: { ...quote, status: "await_activation", expires_at: "2026-04-01T09:00:00.000Z" }
    })
    const activated = QuoteLifecycle.retrievedForm(
      quoteOfRow(quoteRowOf({ ...stored, activated_at: stored.created_at + 1 }))
    )
    expect(activated.state).toBe("activated")
    expect(activated.quote).toMatchObject({ status: "activated", activated_at: "2026-03-02T09:00:00.001Z" })
  })
})
