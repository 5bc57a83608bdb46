/**
 * The lookup every delivery connects through refuses loopback, private and
 * link-local answers on the address actually resolved (DNS rebinding cannot
 * slip a check made earlier), whatever the name looks like. The names here
 * resolve through a resolver of the test's own: no query leaves the machine.
 */
import type { LookupAddress } from "node:dns"
import type { LookupFunction } from "node:net"
import { describe, expect, it } from "vitest"
import { AddressRefused, makeSafeLookup, type Resolver } from "../src/SafeLookup.js"

const address = (text: string): LookupAddress => ({ address: text, family: text.includes(":") ? 6 : 4 })

/** A resolver answering from a table; a name asked again may get its next answer (a rebinding name). */
const resolverOf = (answers: Record<string, ReadonlyArray<ReadonlyArray<string>>>) => {
  const asked: Array<string> = []
  const resolver: Resolver = (hostname, _options, callback) => {
    asked.push(hostname)
    const turns = answers[hostname]
    if (turns === undefined)
      return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), [])
    const turn = asked.filter((name) => name === hostname).length - 1
    callback(null, (turns[Math.min(turn, turns.length - 1)] ?? []).map(address))
  }
  return { resolver, asked }
}

const lookupWith = (lookup: LookupFunction, hostname: string, all: boolean) =>
  new Promise<{ error: NodeJS.ErrnoException | null; address: string | ReadonlyArray<LookupAddress> }>((resolve) =>
    lookup(hostname, { all }, (error, found) => resolve({ error, address: found }))
  )

describe("the webhooks' DNS lookup", () => {
  const { resolver } = resolverOf({
    "localhost.": [["127.0.0.1"]],
    "LOCALHOST.": [["127.0.0.1"]],
    "printer.local.": [["192.168.1.20"]],
    "metadata.google.internal.": [["169.254.169.254"]],
    "v6.example": [["::1"]],
    "mixed.example": [["93.184.215.14", "10.1.2.3"]],
    "hooks.example": [["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]]
  })
  const lookup = makeSafeLookup(resolver)

  it.each(["localhost.", "LOCALHOST.", "printer.local.", "metadata.google.internal.", "v6.example", "mixed.example"])(
    "refuses %s, which resolves to a special-purpose address",
    async (hostname) => {
      const { error } = await lookupWith(lookup, hostname, false)
      expect(error).toBeInstanceOf(AddressRefused)
      expect(error?.message).toBe(`${hostname} resolves to a loopback, private or other special-purpose address`)
    }
  )

  it("resolves a public name as Node would, one address or all", async () => {
    expect((await lookupWith(lookup, "hooks.example", false)).address).toBe("93.184.215.14")
    expect((await lookupWith(lookup, "hooks.example", true)).address).toEqual([
      { address: "93.184.215.14", family: 4 },
      { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 }
    ])
  })

  it("refuses a name that resolved to a public address before and resolves to a private one now (rebinding)", async () => {
    const rebinding = resolverOf({ "rebind.example": [["93.184.215.14"], ["127.0.0.1"]] })
    const rebindingLookup = makeSafeLookup(rebinding.resolver)
    expect((await lookupWith(rebindingLookup, "rebind.example", false)).error).toBeNull()
    expect((await lookupWith(rebindingLookup, "rebind.example", false)).error).toBeInstanceOf(AddressRefused)
    expect(rebinding.asked).toEqual(["rebind.example", "rebind.example"])
  })

  it("passes the resolver's own failure on", async () => {
    expect((await lookupWith(lookup, "unknown.example", false)).error?.code).toBe("ENOTFOUND")
  })
})
