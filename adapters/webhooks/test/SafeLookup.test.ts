/**
 * The lookup every delivery connects through refuses loopback, private and
 * link-local answers on the address actually resolved (DNS rebinding cannot
 * slip a check made earlier).
 */
import type { LookupAddress } from "node:dns"
import { describe, expect, it } from "vitest"
import { AddressRefused, safeLookup } from "../src/SafeLookup.js"

const lookup = (hostname: string, all: boolean) =>
  new Promise<{ error: NodeJS.ErrnoException | null; address: string | ReadonlyArray<LookupAddress> }>((resolve) =>
    safeLookup(hostname, { all }, (error, address) => resolve({ error, address }))
  )

describe("the webhooks' DNS lookup", () => {
  it.each(["localhost", "127.0.0.2", "10.1.2.3", "192.168.0.1", "169.254.169.254", "::1"])(
    "refuses %s",
    async (hostname) => {
      const { error } = await lookup(hostname, false)
      expect(error).toBeInstanceOf(AddressRefused)
      expect(error?.message).toContain("private or other special-purpose address")
    }
  )

  it("resolves a public address as Node would, one or all", async () => {
    expect((await lookup("93.184.215.14", false)).address).toBe("93.184.215.14")
    expect((await lookup("93.184.215.14", true)).address).toEqual([{ address: "93.184.215.14", family: 4 }])
  })
})
