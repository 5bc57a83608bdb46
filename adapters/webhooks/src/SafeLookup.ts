/**
 * DNS resolution that refuses what a webhook must not reach: a name that
 * resolves to a loopback, private or link-local address is refused at
 * connection time — after resolution, on the very address connected to, so
 * a name that changes its answer between check and use (DNS rebinding)
 * cannot slip through.
 */
import { WebhookEndpoints } from "@kasko/core/transport"
import dns from "node:dns"
import type { LookupFunction } from "node:net"

/** The failure of an attempt whose endpoint resolved to an address a webhook must not reach (loopback, private, link-local). */
export class AddressRefused extends Error {
  override readonly name = "AddressRefused"
}

/** How a name is resolved: every address it has (Node's `dns.lookup` with `all`, or a test's own resolver). */
export type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: ReadonlyArray<dns.LookupAddress>) => void
) => void

const systemResolver: Resolver = (hostname, options, callback) => dns.lookup(hostname, options, callback)

/** A `lookup` for node:http(s) requests resolving through `resolve` as Node does, refusing private addresses. */
export const makeSafeLookup =
  (resolve: Resolver): LookupFunction =>
  (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, list) => {
      if (error !== null) return callback(error, "", 0)
      const refused = list.find((entry) => WebhookEndpoints.isPrivateAddress(entry.address))
      if (refused !== undefined)
        return callback(
          // the address itself is not said: the error reaches the partner (its deliveries' last_error), and a
          // partner's own name pointed at internal ones would read back the addresses they resolve to
          new AddressRefused(`${hostname} resolves to a loopback, private or other special-purpose address`),
          "",
          0
        )
      if (options.all === true)
        return (callback as unknown as (e: null, a: ReadonlyArray<dns.LookupAddress>) => void)(null, list)
      const [first] = list
      if (first === undefined) return callback(new AddressRefused(`${hostname} resolves to no address`), "", 0)
      callback(null, first.address, first.family)
    })
  }

/** The lookup deliveries connect through: the system's resolver, private answers refused. */
export const safeLookup: LookupFunction = makeSafeLookup(systemResolver)
