/**
 * `Prefer: return=representation` (RFC 7240) is honoured however a client spells it, and only it: another
 * preference, or `return=minimal`, keeps the minimal answer.
 */
import { describe, expect, it } from "vitest"
import { prefersRepresentation } from "../src/Preferences.js"

describe("the Prefer header", () => {
  it.each([
    "return=representation",
    "RETURN=representation",
    ' return = "representation" ',
    "respond-async, return=representation",
    "return=representation; foo=bar",
    "wait=10, return=representation, handling=lenient"
  ])("asks for the representation with %j", (prefer) => {
    expect(prefersRepresentation(prefer)).toBe(true)
  })

  it("asks for it from any of several Prefer headers", () => {
    expect(prefersRepresentation(["respond-async", "return=representation"])).toBe(true)
  })

  it.each([
    undefined,
    "",
    "return=minimal",
    "respond-async",
    "return=Representation",
    "returns=representation",
    "return=representationx",
    // of a preference given twice only the first counts
    "return=minimal, return=representation"
  ])("leaves the answer minimal with %j", (prefer) => {
    expect(prefersRepresentation(prefer)).toBe(false)
  })
})
