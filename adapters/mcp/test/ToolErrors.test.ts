/** What a failed call tells an agent: what to correct, or whether to try again — never a stack trace or an internal reason. */
import { ConstraintViolation, QuoteNotFound, StorageUnavailable } from "@kasko/core"
import { describe, expect, it } from "vitest"
import { errorResult, toolErrorOf } from "../src/ToolErrors.js"

describe("a tool error", () => {
  it("lists every violation as the REST problem does, in a sentence and as JSON", () => {
    const violations = [
      { field: "product.product_name", message: "must be one of: insurance-car-leasing, insurance-car-standalone" }
    ] as const
    const result = errorResult(toolErrorOf(new ConstraintViolation({ violations: [...violations] })))
    expect(result.isError).toBe(true)
    expect(result.content).toEqual([
      {
        type: "text",
        text: "The arguments break a rule; nothing was done. Correct each field named and call again:\n- product.product_name: must be one of: insurance-car-leasing, insurance-car-standalone"
      },
      { type: "text", text: JSON.stringify({ violations }) }
    ])
  })

  it("keeps the storage's reason for the log, and tells the agent to try again", () => {
    const error = toolErrorOf(
      new StorageUnavailable({ reason: "SQLITE_BUSY at /var/lib/kasko/kasko.db", retryable: true })
    )
    expect(error.serverFault).toBe(true)
    expect(error.text).not.toContain("SQLITE")
    expect(error.text).toContain("Try the call again")
  })

  it("echoes a quote id the caller sent, cut short, and says whose quotes are found", () => {
    const text = toolErrorOf(new QuoteNotFound({ quote_id: "x".repeat(200) })).text
    expect(text).toContain(`"${"x".repeat(64)}…"`)
    expect(text).toContain("only by the partner that created it")
  })
})
