/**
 * The quote request the README's first requests send (examples/requests/quote.json)
 * is the engine's own example, so that it stays valid as the request schema and
 * the tariff change: the walkthrough itself is run by ShellBlocks.test.ts.
 */
import { Examples } from "@kasko/core"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"

it("examples/requests/quote.json is the engine's example quote request", () => {
  const file = join(import.meta.dirname, "..", "..", "examples", "requests", "quote.json")
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(Examples.quoteRequest())
})
