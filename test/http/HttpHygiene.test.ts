/**
 * HTTP the service does not serve is answered in problem+json, never by a reset or an empty body: an Expect
 * other than 100-continue (417), CONNECT (405), and the headers RFC 9112 says a request sends once — two Hosts
 * — or that would be ambiguous twice — two Authorization headers, two subscription keys (400 naming the header).
 */
import { Examples } from "@kasko/core"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { serviceWithPartners } from "./credentials.js"

const service = serviceWithPartners("hygiene", ["alice-leasing"], {})

/** Raw bytes on a socket (left open for the answer: each request says Connection: close); answers all until it closes. */
const rawExchange = (bytes: string) =>
  new Promise<string>((resolve, reject) => {
    const url = new URL(service.server.url)
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes))
    let text = ""
    socket.on("data", (chunk) => (text += String(chunk)))
    socket.on("close", () => resolve(text))
    socket.on("error", reject)
  })

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(raw)?.[1])
const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4))

const offerRequest = (extraHeaders: string) => {
  const body = JSON.stringify(Examples.offerRequest())
  const partner = service.partners["alice-leasing"]!
  return `POST /insurance/car/offers HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nAuthorization: ${partner.headers["authorization"]}\r\nOcp-Apim-Subscription-Key: ${partner.subscriptionKey}\r\n${extraHeaders}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

describe("HTTP the service does not serve", () => {
  it("answers an Expect other than 100-continue with 417 problem+json", async () => {
    const answer = await rawExchange(offerRequest("Expect: something-else\r\n"))
    expect(statusOf(answer)).toBe(417)
    expect(answer).toContain("application/problem+json")
    expect(bodyOf(answer)).toMatchObject({ status: 417, title: "Expectation Failed" })
  })

  it("answers CONNECT with 405 problem+json instead of resetting the connection", async () => {
    const answer = await rawExchange(
      "CONNECT api.example:443 HTTP/1.1\r\nHost: api.example:443\r\nConnection: close\r\n\r\n"
    )
    expect(statusOf(answer)).toBe(405)
    expect(answer).toContain("application/problem+json")
    expect(bodyOf(answer)).toMatchObject({ status: 405, title: "Method Not Allowed" })
  })

  it("answers two Host headers with 400 naming Host", async () => {
    const answer = await rawExchange(
      "GET /health HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n"
    )
    expect(statusOf(answer)).toBe(400)
    expect(bodyOf(answer)).toMatchObject({ status: 400, violations: [{ field: "Host", message: "must be sent once" }] })
  })

  it("answers two Authorization headers with 400 naming Authorization, before the credentials are read", async () => {
    const answer = await rawExchange(offerRequest("Authorization: Bearer another.token.value\r\n"))
    expect(statusOf(answer)).toBe(400)
    expect(bodyOf(answer)).toMatchObject({ violations: [{ field: "Authorization", message: "must be sent once" }] })
  })

  it("answers two subscription keys with 400 naming the header", async () => {
    const answer = await rawExchange(offerRequest("ocp-apim-subscription-key: another-key\r\n"))
    expect(statusOf(answer)).toBe(400)
    expect(bodyOf(answer)).toMatchObject({ violations: [{ field: "ocp-apim-subscription-key" }] })
  })

  it("still serves the same offer sent with each header once, and Expect: 100-continue", async () => {
    expect(statusOf(await rawExchange(offerRequest("")))).toBe(200)
    // 100 Continue first, then the answer
    expect(await rawExchange(offerRequest("Expect: 100-continue\r\n"))).toMatch(
      /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /
    )
  })
})
