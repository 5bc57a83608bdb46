/** Where a webhook endpoint may point (SSRF): https on 443 only, and no special-purpose address of the IANA registries. */
import { describe, expect, it } from "vitest"
import {
  endpointRefusal,
  eventTypesRefusal,
  isPrivateAddress,
  normalisedHost,
  STRICT_ENDPOINT_POLICY
} from "../src/events/WebhookEndpoints.js"

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
    "::ffff:7f00:1",
    // special-purpose ranges the first check let through (IANA IPv4 and IPv6 registries)
    "64:ff9b::a00:1",
    "[64:ff9b::10.0.0.1]",
    "64:ff9b:1::a00:1",
    "[::10.0.0.1]",
    "::a00:1",
    "fec0::1",
    "192.0.0.8",
    "192.0.2.10",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.7",
    "240.0.0.1",
    "255.255.255.255",
    "2001:db8::1",
    "2001:2::1",
    "2001::1",
    "2002:a00:1::1",
    "100::1",
    "ff02::1",
    "4000::1"
  ])("counts %s as private", (address) => {
    expect(isPrivateAddress(address)).toBe(true)
  })

  it.each([
    "8.8.8.8",
    "172.32.0.1",
    "192.169.0.1",
    "100.128.0.1",
    "192.0.1.1",
    "198.20.0.1",
    "2001:4860:4860::8888",
    "2606:4700::1111",
    "hooks.example"
  ])("counts %s as public", (address) => {
    expect(isPrivateAddress(address)).toBe(false)
  })

  it.each([
    ["http://hooks.example/kasko", "must be an https URL"],
    ["https://127.0.0.1/kasko", "must not point at a loopback, private or other special-purpose address"],
    ["https://[::1]:8443/kasko", "must not point at a loopback, private or other special-purpose address"],
    [
      "https://169.254.169.254/latest/meta-data",
      "must not point at a loopback, private or other special-purpose address"
    ],
    ["https://localhost/kasko", "must not point at a loopback, private or other special-purpose address"],
    ["https://metadata.google.internal/", "must not point at a loopback, private or other special-purpose address"],
    [
      "https://[64:ff9b::a9fe:a9fe]/latest/meta-data",
      "must not point at a loopback, private or other special-purpose address"
    ],
    ["https://198.18.0.1/kasko", "must not point at a loopback, private or other special-purpose address"],
    ["https://hooks.example:6379/", "must use the https port, 443"],
    ["https://hooks.example:8443/kasko", "must use the https port, 443"],
    ["https://user:secret@hooks.example/", "must not carry credentials"],
    ["https://hooks.example/#fragment", "must not have a fragment"],
    ["ftp://hooks.example/", "must be an https URL"],
    ["hooks.example/kasko", "must be an absolute URL"],
    [`https://hooks.example/${"a".repeat(2100)}`, "must be at most 2048 characters"]
  ])("refuses %s: %s", (url, reason) => {
    expect(endpointRefusal(url, STRICT_ENDPOINT_POLICY)).toBe(reason)
  })

  // the root's dot, capitals and international forms name the same host (issue 43: LOCALHOST. passed)
  it.each([
    "https://LOCALHOST./x",
    "https://localhost../x",
    "https://foo.localhost./x",
    "https://metadata.google.internal./computeMetadata",
    "https://printer.LOCAL./x",
    "https://ｌｏｃａｌｈｏｓｔ/x",
    "https://127.0.0.1./x",
    "https://0x7f000001/x",
    "https://[::ffff:127.0.0.1]/x"
  ])("refuses %s, however the name is spelled", (url) => {
    expect(endpointRefusal(url, STRICT_ENDPOINT_POLICY)).toBe(
      "must not point at a loopback, private or other special-purpose address"
    )
  })

  it("allows a public name written with the root's dot or in capitals", () => {
    expect(endpointRefusal("https://HOOKS.example./kasko", STRICT_ENDPOINT_POLICY)).toBeUndefined()
    expect(normalisedHost("HOOKS.Example..")).toBe("hooks.example")
  })

  it("allows a public https URL, and http or a private address only where the operator allows it", () => {
    expect(endpointRefusal("https://hooks.example/kasko?partner=1", STRICT_ENDPOINT_POLICY)).toBeUndefined()
    expect(endpointRefusal("https://hooks.example:443/kasko", STRICT_ENDPOINT_POLICY)).toBeUndefined()
    expect(
      endpointRefusal("https://hooks.example:8443/kasko", { allowInsecure: true, allowPrivateAddresses: true })
    ).toBeUndefined()
    expect(endpointRefusal("http://127.0.0.1:9000/", { allowInsecure: true, allowPrivateAddresses: false })).toBe(
      "must not point at a loopback, private or other special-purpose address"
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
