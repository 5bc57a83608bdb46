/**
 * No partner ever sees another's quote: over random (partner, quote,
 * operation) triples and guessed ids, a quote answers its owner and 404s
 * everyone else, byte for byte like an unknown id.
 */
import { Examples } from "@kasko/core"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import { addPartner, type PartnerCredentials } from "./credentials.js"
import { makeClient, startTestService, type TestService } from "./support.js"

const directory = temporaryDirectory("kasko-isolation-")
let server: TestService
let client: Awaited<ReturnType<typeof makeClient>>
const partners: Array<PartnerCredentials> = []
const quotes: Array<{ owner: number; id: string }> = []
let notFoundBody = ""

beforeAll(async () => {
  for (const id of ["partner-one", "partner-two", "partner-three"]) partners.push(await addPartner(directory.path, id))
  server = await startTestService({ dataDirectory: directory.path, authentication: "real" })
  client = await makeClient(server.url)
  for (const [owner, partner] of partners.entries()) {
    for (let count = 0; count < 2; count++) {
      const created = await client.request("POST", "/insurance/car/quotes", {
        body: Examples.quoteRequest(),
        headers: partner.headers
      })
      quotes.push({ owner, id: created.body.quote_id })
    }
  }
  notFoundBody = (
    await client.request("GET", "/insurance/car/quotes/0190a000-0000-7000-8000-000000000000", {
      headers: partners[0]!.headers
    })
  ).text
})
afterAll(async () => {
  await server.stop()
  directory.remove()
})

describe("partner isolation", () => {
  it("answers a quote to its owner only, on retrieve and activate", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 5 }),
        fc.constantFrom("retrieve", "activate"),
        async (requester, quoteIndex, operation) => {
          const quote = quotes[quoteIndex]!
          const path =
            operation === "retrieve"
              ? `/insurance/car/quotes/${quote.id}`
              : `/insurance/car/quotes/${quote.id}/activation`
          const answer = await client.request(operation === "retrieve" ? "GET" : "POST", path, {
            headers: partners[requester]!.headers
          })
          if (requester === quote.owner) {
            expect(answer.status).toBe(200)
          } else {
            expect(answer.status).toBe(404)
            expect(answer.text).toBe(notFoundBody)
          }
        }
      ),
      { numRuns: 120 }
    )
  })

  it("answers 404 to every guessed id", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uuid(), fc.integer({ min: 0, max: 2 }), async (guess, requester) => {
        fc.pre(!quotes.some((quote) => quote.id === guess))
        const answer = await client.request("GET", `/insurance/car/quotes/${guess}`, {
          headers: partners[requester]!.headers
        })
        expect(answer.status).toBe(404)
      }),
      { numRuns: 60 }
    )
  })
})
