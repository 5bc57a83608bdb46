/**
 * Issue 43's attack, scaled down: addresses each within their per-address limit, together holding more slow
 * connections than the service's maximum, each sending one header line and reconnecting whenever the
 * service closes it. Refusing new connections at the maximum left the attacker every slot it freed; making
 * room by closing the connection that has waited longest with no request in progress lets a normal client
 * (127.0.0.1) in. The service runs in its own process; `bench/connections.mjs` repeats the attack at full size.
 */
import { Examples } from "@kasko/core"
import { request as httpRequest } from "node:http"
import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { offersPartnerHeaders, startServiceProcess, temporaryDirectory, type ServiceProcess } from "../support.js"

const MAX_CONNECTIONS = 200
const PER_ADDRESS = 32
// 8 addresses × 32 connections: each address at its limit, together 56 over the maximum
const ATTACK_ADDRESSES = Array.from({ length: 8 }, (_, index) => `127.0.2.${index + 1}`)
const ATTACK_SIZE = ATTACK_ADDRESSES.length * PER_ADDRESS
const OFFERS = 100
const NORMAL_CLIENT = "127.0.0.1"

const directory = temporaryDirectory("kasko-slow-connections-")
const environment = {
  KASKO_DATA_DIR: directory.path,
  KASKO_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
  KASKO_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
  KASKO_RATE_LIMIT_PER_MINUTE: "100000"
}
let service: ServiceProcess
let headers: Record<string, string>

beforeAll(async () => {
  headers = await offersPartnerHeaders(environment)
  service = await startServiceProcess(environment)
}, 60_000)
afterAll(async () => {
  await service?.stop()
  directory.remove()
}, 30_000)

/** The attack: every connection sends one header line and is opened again whenever the service closes it. */
const attack = () => {
  const url = new URL(service.url)
  const open = new Set<Socket>()
  let stopped = false
  let closedByService = 0
  let waiter: { readonly count: number; readonly resolve: () => void } | undefined
  const keepOpen = (localAddress: string) =>
    new Promise<void>((ended) => {
      const reconnect = () => {
        if (stopped) return ended()
        const socket = connect({ port: Number(url.port), host: url.hostname, localAddress })
        open.add(socket)
        socket.on("error", () => undefined)
        socket.once("connect", () => socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n"))
        socket.once("close", () => {
          open.delete(socket)
          if (!stopped) closedByService++
          if (waiter !== undefined && closedByService >= waiter.count) waiter.resolve()
          reconnect()
        })
      }
      reconnect()
    })
  const loops = ATTACK_ADDRESSES.flatMap((address) => Array.from({ length: PER_ADDRESS }, () => keepOpen(address)))
  return {
    /** Resolves once the service has closed `count` of the attacker's connections. */
    closed: (count: number) =>
      new Promise<void>((resolve) => {
        if (closedByService >= count) resolve()
        else waiter = { count, resolve }
      }),
    stop: async () => {
      stopped = true
      for (const socket of open) socket.destroy()
      await Promise.all(loops)
    }
  }
}

/** An offer on a connection of its own from the normal client's address: its status, or 0 when the connection closed unanswered. */
const offerOnNewConnection = () =>
  new Promise<number>((resolve) => {
    const url = new URL(service.url)
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/insurance/car/offers",
        headers: { ...headers, connection: "close" },
        agent: false,
        localAddress: NORMAL_CLIENT
      },
      (incoming) => {
        incoming.resume()
        incoming.on("end", () => resolve(incoming.statusCode ?? 0))
        incoming.on("error", () => resolve(0))
      }
    )
    outgoing.on("error", () => resolve(0))
    outgoing.end(JSON.stringify(Examples.offerRequest()))
  })

describe("slow connections from many addresses", () => {
  it("leave a normal client at least 95 % of its offers answered while they hold more connections than the maximum and reconnect whenever closed", async () => {
    const attacking = attack()
    try {
      // the maximum is reached once the service has closed what the attack opened beyond it (no address is over its own)
      await attacking.closed(ATTACK_SIZE - MAX_CONNECTIONS)
      const statuses = []
      for (let index = 0; index < OFFERS; index++) statuses.push(await offerOnNewConnection())
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(0.95 * OFFERS)
      expect(statuses.filter((status) => status !== 200 && status !== 0)).toEqual([])
    } finally {
      await attacking.stop()
    }
    expect(service.ended).toBeUndefined()
  }, 60_000)
})
