/**
 * The per-address connection limit: one address's connections over the limit are closed as they arrive,
 * other addresses' are not, and a trusted proxy's (which carry many clients) are exempt. The proxies are
 * those KASKO_TRUST_PROXY names, as Express decides it.
 */
import { isTrustedProxy } from "@kasko/express/toolkit"
import { connect, type Socket } from "node:net"
import type { AddressInfo } from "node:net"
import { pino } from "pino"
import { afterEach, describe, expect, it } from "vitest"
import { makeHttpServer } from "../src/HttpServer.js"

const LIMITS = {
  headersTimeoutMillis: 10_000,
  requestTimeoutMillis: 10_000,
  keepAliveTimeoutMillis: 5_000,
  maxConnections: 1_000,
  maxConnectionsPerAddress: 2
}

const servers: Array<ReturnType<typeof makeHttpServer>> = []
const sockets: Array<Socket> = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

const serve = async (trusted: (address: string) => boolean) => {
  const server = makeHttpServer(
    (_request, response) => response.end("ok"),
    { ...LIMITS, isTrustedProxy: trusted },
    pino({ level: "silent" })
  )
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return (server.address() as AddressInfo).port
}

/** Opens `count` connections from `localAddress`; answers how many the server closed within 300 ms. */
const closedOf = async (port: number, localAddress: string, count: number) => {
  let closed = 0
  for (let index = 0; index < count; index++) {
    const socket = connect({ port, host: "127.0.0.1", localAddress })
    socket.on("error", () => undefined)
    socket.on("close", () => closed++)
    sockets.push(socket)
    await new Promise((resolve) => socket.once("connect", resolve))
  }
  await new Promise((resolve) => setTimeout(resolve, 300))
  return closed
}

describe("the per-address connection limit", () => {
  it("closes an address's connections over its limit, and not another address's", async () => {
    const port = await serve(() => false)
    expect(await closedOf(port, "127.0.0.2", 5)).toBe(3)
    expect(await closedOf(port, "127.0.0.3", 2)).toBe(0)
  })

  it("leaves a trusted proxy's connections alone", async () => {
    const port = await serve(isTrustedProxy("127.0.0.2"))
    expect(await closedOf(port, "127.0.0.2", 5)).toBe(0)
    expect(await closedOf(port, "127.0.0.3", 5)).toBe(3)
  })
})

describe("the trusted proxies", () => {
  it("are none when unset, every peer for a hop count, and the addresses or subnets named otherwise", () => {
    expect(isTrustedProxy(undefined)("127.0.0.1")).toBe(false)
    expect(isTrustedProxy("")("10.0.0.1")).toBe(false)
    expect(isTrustedProxy("1")("203.0.113.9")).toBe(true)
    const named = isTrustedProxy("loopback, 10.0.0.0/8")
    expect(["127.0.0.1", "::1", "10.20.30.40", "192.168.1.1"].map(named)).toEqual([true, true, true, false])
  })
})
