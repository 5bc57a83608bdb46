/** Where a webhook endpoint may point (SSRF): https only, and no loopback, private or link-local address. */
import { describe, expect, it } from "vitest"
import {
  endpointRefusal,
  eventTypesRefusal,
  isPrivateAddress,
  STRICT_ENDPOINT_POLICY
} from "../src/events/WebhookSubscription.js"

describe("the webhook endpoint policy", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "[::1]",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1"
  ])("counts %s as private", (address) => {
    expect(isPrivateAddress(address)).toBe(true)
  })

  it.each(["8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2001:4860:4860::8888", "hooks.example"])(
    "counts %s as public",
    (address) => {
      expect(isPrivateAddress(address)).toBe(false)
    }
  )

  it.each([
    ["http://hooks.example/kasko", "must be an https URL"],
    ["https://127.0.0.1/kasko", "must not point at a loopback, private or link-local address"],
    ["https://[::1]:8443/kasko", "must not point at a loopback, private or link-local address"],
    ["https://169.254.169.254/latest/meta-data", "must not point at a loopback, private or link-local address"],
    ["https://localhost/kasko", "must not point at a loopback, private or link-local address"],
    ["https://metadata.google.internal/", "must not point at a loopback, private or link-local address"],
    ["https://user:secret@hooks.example/", "must not carry credentials"],
    ["https://hooks.example/#fragment", "must not have a fragment"],
    ["ftp://hooks.example/", "must be an https URL"],
    ["hooks.example/kasko", "must be an absolute URL"],
    [`https://hooks.example/${"a".repeat(2100)}`, "must be at most 2048 characters"]
  ])("refuses %s: %s", (url, reason) => {
    expect(endpointRefusal(url, STRICT_ENDPOINT_POLICY)).toBe(reason)
  })

  it("allows a public https URL, and http or a private address only where the operator allows it", () => {
    expect(endpointRefusal("https://hooks.example/kasko?partner=1", STRICT_ENDPOINT_POLICY)).toBeUndefined()
    expect(endpointRefusal("http://127.0.0.1:9000/", { allowInsecure: true, allowPrivateAddresses: false })).toBe(
      "must not point at a loopback, private or link-local address"
    )
    expect(
      endpointRefusal("http://127.0.0.1:9000/", { allowInsecure: true, allowPrivateAddresses: true })
    ).toBeUndefined()
  })

  it.each([
    [[], "must be a non-empty list of quote.created, quote.activated, quote.expired"],
    ["quote.created", "must be a non-empty list of quote.created, quote.activated, quote.expired"],
    [
      ["quote.created", "quote.deleted"],
      'has "quote.deleted", not one of quote.created, quote.activated, quote.expired'
    ],
    [["quote.created", "quote.created"], "names an event type twice"]
  ])("refuses event types %j", (value, reason) => {
    expect(eventTypesRefusal(value)).toBe(reason)
  })
})
