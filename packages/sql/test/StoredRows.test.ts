/**
 * A quote read from its row is answered as the row's JSON text: retrieval
 * neither parses nor encodes it again, and the text is what encoding the
 * parsed quote would give. A quote written gives its row text to the answer
 * of its creation.
 */
import { Examples, type QuoteStore } from "@kasko/core"
import { QuoteLifecycle } from "@kasko/core/storage"
import { describe, expect, it } from "vitest"
import { quoteOfRow, quoteRowOf } from "../src/StoredRows.js"

// a store keeps the content; the answers add its state
const { status: _status, expires_at: _expiresAt, ...quote } = Examples.quoteAnswer()
const STATE = { status: "await_activation", expires_at: "2026-04-01T09:00:00.000Z" }
// the worksheet is stored beside the quote and read only when asked for: any will do here
const stored = {
  quote_id: quote.quote_id,
  partner_id: "partner-a",
  quote_number: "1234 5678 9012",
  created_at: Date.parse("2026-03-02T09:00:00Z"),
  activated_at: null,
  tariff_version: "2026-01",
  quote,
  worksheet: { lines: [] }
} as unknown as QuoteStore.StoredQuote

describe("a quote's row", () => {
  it("keeps the quote's JSON for the answer to its creation", () => {
    const row = quoteRowOf(stored)
    expect(QuoteLifecycle.jsonTextOf(stored.quote)).toBe(row.quote_json)
    expect(row.quote_json).toBe(JSON.stringify(stored.quote))
  })

  it("is retrieved as its JSON text, not parsed", () => {
    const row = { ...quoteRowOf(stored), quote_json: JSON.stringify(stored.quote) }
    const parse = JSON.parse
    let parsed = 0
    JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
      parsed++
      return parse(...args)
    }
    try {
      const retrieved = QuoteLifecycle.retrievedForm(quoteOfRow(row))
      expect(retrieved.state).toBe("await_activation")
      // the row's text with the state added: nothing parsed, nothing encoded again
      expect(QuoteLifecycle.quoteTextOf(retrieved)).toBe(
        `${row.quote_json.slice(0, -1)},"status":"await_activation","expires_at":"2026-04-01T09:00:00.000Z"}`
      )
      // the text is the quote's, not the retrieved form's
      expect(QuoteLifecycle.jsonTextOf(retrieved)).toBeUndefined()
      expect(parsed).toBe(0)
      // read when asked for, and the same quote as the text
      expect(retrieved.quote).toEqual({ ...stored.quote, ...STATE })
      expect(JSON.stringify(retrieved.quote)).toBe(QuoteLifecycle.quoteTextOf(retrieved))
    } finally {
      JSON.parse = parse
    }
  })

  it("is the §2.10 form, encoded as usual, once activated", () => {
    const retrieved = QuoteLifecycle.retrievedForm(
      quoteOfRow(quoteRowOf({ ...stored, activated_at: stored.created_at + 1 }))
    )
    expect(retrieved.state).toBe("activated")
    expect(QuoteLifecycle.quoteTextOf(retrieved)).toBeUndefined()
  })
  it("reads the quote and worksheet of every row, and every retrieval's quote, through one getter each", () => {
    // A getter made per quote (a closure over its row) kept each retrieval's row alive past the young collections
    // after it: ~5 MB promoted a collection under a GET load against 25 KB (bench/README.md, issue 29's third step)
    // two rows that differ in every text, so that each object is seen to read its own
    const other = {
      ...stored,
      quote_id: "other",
      quote: { ...stored.quote, quote_id: "other" },
      worksheet: { lines: ["other"] }
    } as unknown as QuoteStore.StoredQuote
    const [first, second] = [quoteOfRow(quoteRowOf(stored)), quoteOfRow(quoteRowOf(other))]
    const getterOf = (value: object, key: string) => Object.getOwnPropertyDescriptor(value, key)?.get
    for (const key of ["quote", "worksheet"]) {
      expect(getterOf(first, key)).toBeTypeOf("function")
      expect(getterOf(first, key)).toBe(getterOf(second, key))
    }
    const [retrievedFirst, retrievedSecond] = [
      QuoteLifecycle.retrievedForm(first),
      QuoteLifecycle.retrievedForm(second)
    ]
    expect(getterOf(retrievedFirst, "quote")).toBeTypeOf("function")
    expect(getterOf(retrievedFirst, "quote")).toBe(getterOf(retrievedSecond, "quote"))
    // each still its own
    expect(first.worksheet).toEqual(stored.worksheet)
    expect(second.worksheet).toEqual(other.worksheet)
    expect(second.quote).toEqual(other.quote)
    expect(first.quote).toEqual(stored.quote)
    expect(retrievedSecond.quote).toEqual({ ...other.quote, ...STATE })
    expect(retrievedFirst.quote).toEqual({ ...stored.quote, ...STATE })
    // plain objects, as a store's quotes were: compared, copied and printed as such
    expect(Object.getPrototypeOf(second)).toBe(Object.prototype)
    expect(Object.getPrototypeOf(retrievedSecond)).toBe(Object.prototype)
    expect(second).toStrictEqual({ ...second })
    // a copy of the descriptors has the getters but not the text they read: it says so
    const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(second)) as typeof second
    expect(() => copy.worksheet).toThrow("a stored quote's worksheet reads its text from the object a store made")
    expect(Object.keys(second)).toEqual([
      "quote_id",
      "partner_id",
      "quote_number",
      "created_at",
      "activated_at",
      "tariff_version",
      "quote",
      "worksheet"
    ])
  })
})
