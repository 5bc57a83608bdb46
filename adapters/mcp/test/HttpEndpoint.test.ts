/**
 * The MCP endpoint's screen, which runs before its caller is admitted: a Host that is not one of the service's
 * names (DNS rebinding) and an Origin that is neither the service's own nor an allowed one are refused.
 */
import { describe, expect, it } from "vitest"
import { mcpEndpoint } from "../src/HttpEndpoint.js"

const screen = mcpEndpoint({
  hosts: ["localhost", "127.0.0.1", "[::1]", "api.insurer.example"],
  origins: ["https://portal.partner.example"]
}).screen

describe("the MCP endpoint's screen", () => {
  it("lets the service's own names through, on any port", () => {
    for (const host of [
      "localhost:8080",
      "127.0.0.1:41234",
      "[::1]:8080",
      "api.insurer.example",
      "API.insurer.example"
    ])
      expect(screen({ host }), host).toBeUndefined()
  })

  it("refuses a Host that is none of them, or none at all", () => {
    expect(screen({ host: "evil.example.com:8080" })).toMatch(/DNS rebinding/)
    expect(screen({ host: "127.0.0.1.evil.example" })).toMatch(/not to Host "127.0.0.1.evil.example"/)
    expect(screen({})).toBeDefined()
  })

  it("lets the service's own origin and the allowed ones through, and refuses the others", () => {
    expect(screen({ host: "localhost:8080", origin: "http://localhost:8080" })).toBeUndefined()
    expect(screen({ host: "api.insurer.example", origin: "https://portal.partner.example" })).toBeUndefined()
    expect(screen({ host: "localhost:8080", origin: "http://evil.example.com" })).toMatch(/not Origin "http:\/\/evil/)
    expect(screen({ host: "localhost:8080", origin: "null" })).toBeDefined()
  })
})
