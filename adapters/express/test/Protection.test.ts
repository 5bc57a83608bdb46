/**
 * The protection's pure parts: the header checks every route asks (Host
 * present, Host and credentials sent once), the address a client is counted
 * under, and Express's `trust proxy` from the setting.
 */
import type { IncomingMessage } from "node:http"
import { describe, expect, it } from "vitest"
import { clientAddressKey, headersRefusal, isTrustedProxy, trustProxySetting } from "../src/Protection.js"

/** A request as Node parses it: the first of each repeated Host or Authorization in `headers`, all in `rawHeaders`. */
const request = (httpVersion: string, raw: ReadonlyArray<readonly [string, string]> = []) => {
  const headers: Record<string, string> = {}
  for (const [name, value] of raw) headers[name.toLowerCase()] ??= value
  return { httpVersion, headers, rawHeaders: raw.flat() } as unknown as IncomingMessage
}

describe("the header checks", () => {
  it("refuse HTTP/1.1 without Host, naming the header", () => {
    expect(headersRefusal(request("1.1"))?.problem).toMatchObject({
      status: 400,
      violations: [{ field: "Host", message: "is required in HTTP/1.1 (RFC 9112)" }]
    })
  })

  it("let HTTP/1.1 with Host, and HTTP/1.0 without, through", () => {
    expect(headersRefusal(request("1.1", [["Host", "api.example"]]))).toBeUndefined()
    expect(headersRefusal(request("1.0"))).toBeUndefined()
  })

  it.each([
    [
      [
        ["Host", "a.example"],
        ["host", "b.example"]
      ],
      "Host"
    ],
    [
      [
        ["Host", "a.example"],
        ["Authorization", "Bearer a"],
        ["AUTHORIZATION", "Bearer b"]
      ],
      "Authorization"
    ],
    [
      [
        ["Host", "a.example"],
        ["Ocp-Apim-Subscription-Key", "k1"],
        ["ocp-apim-subscription-key", "k2"]
      ],
      "ocp-apim-subscription-key"
    ]
  ] as const)("refuse a request that sends a header twice (%j), naming it", (raw, field) => {
    expect(headersRefusal(request("1.1", raw))?.problem).toMatchObject({
      status: 400,
      violations: [{ field, message: "must be sent once" }]
    })
  })
})

describe("the address a client is counted under", () => {
  it("is an IPv4 address itself", () => {
    expect(clientAddressKey("127.0.0.2")).toBe("127.0.0.2")
  })

  it("is an IPv6 address's network, so one host cannot hop addresses within it", () => {
    expect(clientAddressKey("2001:db8:1:2::1")).toBe(clientAddressKey("2001:db8:1:2::ffff"))
    expect(clientAddressKey("2001:db8:1:2::1")).not.toBe(clientAddressKey("2001:db9::1"))
  })
})

describe("trust proxy", () => {
  it("is off unless set; a number of hops, or the addresses named", () => {
    expect(trustProxySetting(undefined)).toBe(false)
    expect(trustProxySetting("")).toBe(false)
    expect(trustProxySetting("2")).toBe(2)
    expect(trustProxySetting("loopback, 10.0.0.0/8")).toBe("loopback, 10.0.0.0/8")
  })

  it("trusts exactly the peers it names", () => {
    expect(isTrustedProxy(undefined)("127.0.0.1")).toBe(false)
    const trusted = isTrustedProxy("loopback, 10.0.0.0/8")
    expect(trusted("127.0.0.1")).toBe(true)
    expect(trusted("10.2.3.4")).toBe(true)
    expect(trusted("192.0.2.1")).toBe(false)
  })
})
