/** examples/embed-in-process runs with one command and does what a partner platform needs. */
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { EMBED_EXAMPLE } from "../support.js"

describe("the in-process embedding example", () => {
  it("reads a product, prices an offer, creates, retrieves and activates quotes, with Effect and with promises", () => {
    const output = execFileSync(process.execPath, [join(EMBED_EXAMPLE, "dist", "src", "main.js")], { encoding: "utf8" })
    const lines = output.trim().split("\n")
    expect(lines).toEqual([
      "effect: product insurance-car-leasing — 9 parameters, features standard, premium",
      // 350 000 kr, driver 23: see the reference tariff; 13 002 kr a year, 1 138 a month
      "effect: offer 13002 kr a year or 1138 kr a month, 5 coverages",
      expect.stringMatching(/^effect: quote [0-9a-f-]{36} for 13002 DKK, policy \d{10}$/),
      "effect: retrieved, await_activation",
      expect.stringMatching(/^effect: activated, quote number \d{4} \d{4} \d{4} \d{4}$/),
      "effect: refused product.parameters.vehicle_price must be between 1000 and 10000000",
      "promise: product insurance-car-standalone — 7 parameters in its features",
      expect.stringMatching(/^promise: offer \d+ kr a year or \d+ kr a month$/),
      expect.stringMatching(
        /^promise: quote [0-9a-f-]{36} for \d+ DKK a month, product business-car-insurance-standalone$/
      ),
      "promise: retrieved, activated",
      "promise: another partner gets QuoteNotFound"
    ])
    const monthlyOffer = /or (\d+) kr a month$/.exec(lines[7]!)![1]
    expect(lines[8]).toContain(`for ${monthlyOffer} DKK a month`)
  })
})
