/**
 * Behind a shared NAT a bad client and a good partner come from one address. The address's failed
 * authentications are counted, and past their limit each further failure is answered 429; a request whose
 * credentials verify is still served (issue 43: the good partner was locked out with the attacker).
 */
import { Examples } from "@kasko/core"
import { request as httpRequest } from "node:http"
import { describe, expect, it } from "vitest"
import { serviceWithPartners } from "./credentials.js"

const FAILURES_PER_MINUTE = 5
const service = serviceWithPartners("shared-address", ["alice-leasing"], {
  KASKO_AUTH_FAILURES_PER_MINUTE: String(FAILURES_PER_MINUTE)
})

const SHARED_ADDRESS = "127.0.0.5"

/** POST /insurance/car/offers from the shared address; answers the status. */
const offerFromSharedAddress = (headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    const url = new URL(service.server.url)
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/insurance/car/offers",
        headers: { ...headers, "content-type": "application/json" },
        localAddress: SHARED_ADDRESS
      },
      (incoming) => {
        incoming.resume()
        incoming.on("end", () => resolve(incoming.statusCode ?? 0))
      }
    )
    outgoing.on("error", reject)
    outgoing.end(JSON.stringify(Examples.offerRequest()))
  })

describe("an address past its failed authentications", () => {
  it("answers its failures 429 and still serves the partner whose credentials verify", async () => {
    const partner = service.partners["alice-leasing"]!
    const forged = { authorization: "Bearer forged.token.value", "ocp-apim-subscription-key": partner.subscriptionKey }
    const failures: Array<number> = []
    for (let attempt = 0; attempt < FAILURES_PER_MINUTE + 3; attempt++)
      failures.push(await offerFromSharedAddress(forged))
    expect(failures).toEqual([...Array(FAILURES_PER_MINUTE).fill(401), 429, 429, 429])
    // the good partner behind the same address
    expect(await offerFromSharedAddress(partner.headers)).toBe(200)
    expect(await offerFromSharedAddress(partner.headers)).toBe(200)
    // and the bad client is still refused
    expect(await offerFromSharedAddress(forged)).toBe(429)
  })
})
