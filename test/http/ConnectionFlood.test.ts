/**
 * Connection floods never starve a normal client: with hundreds of idle
 * connections and slow bodies opened against the service (its own process, its
 * own file descriptors) from an attacker's address (127.0.0.2), a partner on
 * another address still gets its answers. What one address opens beyond its
 * limit is closed at once, unanswered, even as it reconnects whenever one is
 * closed; the slow bodies it holds are answered 408 at the body timeout; and
 * beyond the configured maximum, from many addresses, the connections that have
 * waited longest with no request in progress are closed to make room, so the
 * service never holds more and a normal client still gets in. Nothing here is
 * timed: each step waits for the connections' own events.
 */
import { Examples } from "@kasko/core"
import { request as httpRequest } from "node:http"
import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { offersPartnerHeaders, startServiceProcess, temporaryDirectory, type ServiceProcess } from "../support.js"

const IDLE = 600
const SLOW = 200
const MAX_CONNECTIONS = 1_000
const PER_ADDRESS = 64
// the reconnecting address's loops: four times its limit, each opening another connection as soon as one is closed
const RECONNECTING = 4 * PER_ADDRESS
const ATTACKER = "127.0.0.2"
const HEADERS_TIMEOUT_MILLIS = 2_000
const BODY_TIMEOUT_MILLIS = 3_000

const directory = temporaryDirectory("kasko-flood-")
const environment = {
  KASKO_DATA_DIR: directory.path,
  KASKO_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
  KASKO_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
  KASKO_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MILLIS),
  KASKO_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MILLIS),
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

interface Held {
  readonly socket: Socket
  /** Resolves when the connection has closed. */
  readonly closed: Promise<void>
  isClosed: boolean
  received: string
}

const open = (first?: string, localAddress = ATTACKER) =>
  new Promise<Held>((resolve, reject) => {
    const url = new URL(service.url)
    const socket = connect({ port: Number(url.port), host: url.hostname, localAddress })
    let closed!: () => void
    const held: Held = {
      socket,
      closed: new Promise<void>((resolve) => (closed = resolve)),
      isClosed: false,
      received: ""
    }
    socket.once("connect", () => {
      if (first !== undefined) socket.write(first)
      resolve(held)
    })
    socket.on("data", (chunk) => (held.received += String(chunk)))
    socket.on("close", () => {
      held.isClosed = true
      closed()
    })
    socket.on("error", () => undefined)
    socket.once("error", reject)
  })

/** Resolves once `count` of the connections have closed. */
const closedCount = (entries: ReadonlyArray<Held>, count: number) =>
  new Promise<void>((resolve) => {
    let closed = 0
    if (count <= 0) resolve()
    for (const entry of entries)
      void entry.closed.then(() => {
        if (++closed === count) resolve()
      })
  })

const offer = async () => {
  const response = await fetch(`${service.url}/insurance/car/offers`, {
    method: "POST",
    headers,
    body: JSON.stringify(Examples.offerRequest())
  })
  await response.text()
  return response.status
}

/** An offer on a connection of its own from the normal client's address (127.0.0.1): its status, 0 if the connection closed unanswered. */
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
        localAddress: "127.0.0.1"
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

const PROBLEM_408 = /^HTTP\/1\.1 408 [\s\S]*application\/problem\+json/

describe("a connection flood", () => {
  it("leaves a normal client served, closes at once and unanswered what one address opens over its limit, and the slow bodies it holds at the body timeout with 408", async () => {
    const slowHead = `POST /insurance/car/offers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\nAuthorization: ${headers["authorization"]}\r\nocp-apim-subscription-key: ${headers["ocp-apim-subscription-key"]}\r\n\r\n{`
    const slow = await Promise.all(Array.from({ length: SLOW }, () => open(slowHead)))
    const idle = await Promise.all(Array.from({ length: IDLE }, () => open()))
    const flood = [...slow, ...idle]
    // the slow bodies dribble a byte every 300 ms, as a slowloris does: the attack's pace, not the test's order
    const dribble = setInterval(() => {
      for (const held of slow) if (!held.isClosed) held.socket.write(" ")
    }, 300)
    try {
      const statuses = []
      for (let round = 0; round < 10; round++) statuses.push(await offer())
      expect(statuses).toEqual(Array(10).fill(200))
      // every connection of the flood ends: those over the address's limit unanswered, the held ones with 408
      await Promise.all(flood.map((entry) => entry.closed))
      const answered = flood.filter((entry) => PROBLEM_408.test(entry.received))
      // of the attacker's 800, its limit's worth were held: the first, slow bodies
      expect(answered).toHaveLength(PER_ADDRESS)
      expect(answered.every((entry) => slow.includes(entry))).toBe(true)
      expect(flood.filter((entry) => entry.received === "")).toHaveLength(SLOW + IDLE - PER_ADDRESS)
    } finally {
      clearInterval(dribble)
      for (const entry of flood) entry.socket.destroy()
    }
    expect(service.ended).toBeUndefined()
  }, 60_000)

  it("serves a normal client's new connections while one address reconnects whenever the service closes one", async () => {
    let reconnecting = true
    let stop!: () => void
    const stopped = new Promise<void>((resolve) => (stop = resolve))
    const attacker: Array<Held> = []
    let closedByService = 0
    let overItsLimitClosed!: () => void
    const overItsLimit = new Promise<void>((resolve) => (overItsLimitClosed = resolve))
    const keepOpening = async () => {
      while (reconnecting) {
        const held = await open().catch(() => undefined)
        if (held === undefined) continue
        attacker.push(held)
        await Promise.race([held.closed, stopped])
        if (reconnecting && ++closedByService === RECONNECTING - PER_ADDRESS) overItsLimitClosed()
      }
    }
    const loops = Array.from({ length: RECONNECTING }, () => keepOpening())
    try {
      // the service has closed as many as the address opened over its limit
      await overItsLimit
      const statuses = []
      for (let round = 0; round < 100; round++) statuses.push(await offerOnNewConnection())
      expect(statuses).toEqual(Array(100).fill(200))
    } finally {
      reconnecting = false
      stop()
      for (const held of attacker) held.socket.destroy()
      await Promise.all(loops)
    }
    expect(service.ended).toBeUndefined()
  }, 60_000)

  it("beyond the maximum, from many addresses, closes the connections that have waited longest rather than hold more, and lets a normal client in", async () => {
    // 30 addresses of 40 connections each, every one within its own limit, in two waves: together 200 over the maximum
    const addresses = Array.from({ length: 30 }, (_, index) => `127.0.1.${index + 1}`)
    const wave = () =>
      Promise.all(addresses.flatMap((address) => Array.from({ length: 20 }, () => open(undefined, address))))
    const first = await wave()
    const second = await wave()
    const flood = [...first, ...second]
    try {
      await closedCount(flood, flood.length - MAX_CONNECTIONS)
      const closed = flood.filter((entry) => entry.isClosed)
      expect(flood.length - closed.length).toBeLessThanOrEqual(MAX_CONNECTIONS)
      // the first wave has waited longest: none of the second was closed to make room
      expect(closed.every((entry) => first.includes(entry))).toBe(true)
      // a new connection at the maximum makes room too
      expect(await offerOnNewConnection()).toBe(200)
    } finally {
      for (const entry of flood) entry.socket.destroy()
    }
    expect(await offer()).toBe(200)
    expect(service.ended).toBeUndefined()
  }, 60_000)
})
