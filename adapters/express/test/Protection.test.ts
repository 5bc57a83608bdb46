/**
 * The protection's pure parts: the Host check every route asks, the address
 * a client is counted under, and Express's `trust proxy` from the setting.
 */
import type { IncomingMessage } from "node:http"
import { describe, expect, it } from "vitest"
import { clientAddressKey, hostRefusal, isTrustedProxy, trustProxySetting } from "../src/Protection.js"

const request = (httpVersion: string, host?: string) =>
  ({ httpVersion, headers: host === undefined ? {} : { host } }) as IncomingMessage

describe("the Host check", () => {
  it("refuses HTTP/1.1 without Host, naming the header", () => {
    expect(hostRefusal(request("1.1"))?.problem).toMatchObject({
      status: 400,
      violations: [{ field: "Host", message: "is required in HTTP/1.1 (RFC 9112)" }]
    })
  })

  it("lets HTTP/1.1 with Host, and HTTP/1.0 without, through", () => {
    expect(hostRefusal(request("1.1", "api.example"))).toBeUndefined()
    expect(hostRefusal(request("1.0"))).toBeUndefined()
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
