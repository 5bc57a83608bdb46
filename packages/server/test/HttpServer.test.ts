/**
 * The connection limits, seen from the server's side of each connection (no sleeps: a connection's fate is
 * read once the server has taken it). One address's connections over its limit are closed as they arrive,
 * other addresses' are not, and a trusted proxy's (which carry many clients) are exempt; the proxies are
 * those KASKO_TRUST_PROXY names, as Express decides it. At the limit on all connections, a new one closes
 * the connection that has waited longest with no request in progress, and is closed itself only when every
 * connection has one.
 */
import { isTrustedProxy } from "@kasko/express/toolkit"
import type { RequestListener, Server } from "node:http"
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
  maxConnectionsPerAddress: 2,
  isTrustedProxy: (_address: string) => false
}
const NORMAL_CLIENT = "127.0.0.1"
const ATTACKER = "127.0.0.2"

const servers: Array<Server> = []
const sockets: Array<Socket> = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

const deferred = <A>() => {
  let resolve!: (value: A) => void
  const promise = new Promise<A>((settle) => (resolve = settle))
  return { promise, resolve }
}

interface Connection {
  readonly client: Socket
  /** The same connection as the server holds it: `destroyed` once the server has closed it. */
  readonly server: Socket
  /** Whether the server kept the connection once it had taken it. */
  readonly kept: boolean
  readonly closed: Promise<void>
  received: string
}

/** A server with the limits, and a way to open connections to it and read their fate on its side. */
const serve = async (
  limits: Partial<typeof LIMITS>,
  app: RequestListener = (_request, response) => response.end("ok")
) => {
  const server = makeHttpServer(app, { ...LIMITS, ...limits }, pino({ level: "silent" }))
  servers.push(server)
  const taken = new Map<string, ReturnType<typeof deferred<Socket>>>()
  const takenOf = (key: string) => taken.get(key) ?? taken.set(key, deferred<Socket>()).get(key)!
  // registered after the limits' own listeners, so a connection they close is seen closed
  server.on("connection", (socket: Socket) => takenOf(`${socket.remoteAddress}:${socket.remotePort}`).resolve(socket))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  /** Opens a connection from `localAddress` and writes `first` on it; answers once the server has taken it. */
  const open = (localAddress: string, first?: string) =>
    new Promise<Connection>((resolve) => {
      const client = connect({ port, host: "127.0.0.1", localAddress })
      const closed = deferred<void>()
      client.on("error", () => undefined)
      client.on("close", () => closed.resolve())
      sockets.push(client)
      client.once("connect", async () => {
        if (first !== undefined) client.write(first)
        const serverSide = await takenOf(`${localAddress}:${client.localPort}`).promise
        const connection: Connection = {
          client,
          server: serverSide,
          kept: !serverSide.destroyed,
          closed: closed.promise,
          received: ""
        }
        client.on("data", (chunk) => (connection.received += String(chunk)))
        resolve(connection)
      })
    })
  /** Whether each of `count` connections opened in turn from `localAddress` was kept. */
  const keptOf = async (localAddress: string, count: number) => {
    const kept = []
    for (let index = 0; index < count; index++) kept.push((await open(localAddress)).kept)
    return kept
  }
  return { open, keptOf }
}

describe("the per-address connection limit", () => {
  it("closes an address's connections over its limit, and not another address's", async () => {
    const { keptOf } = await serve({})
    expect(await keptOf("127.0.0.2", 5)).toEqual([true, true, false, false, false])
    expect(await keptOf("127.0.0.3", 2)).toEqual([true, true])
  })

  it("leaves a trusted proxy's connections alone", async () => {
    const { keptOf } = await serve({ isTrustedProxy: isTrustedProxy("127.0.0.2") })
    expect(await keptOf("127.0.0.2", 5)).toEqual([true, true, true, true, true])
    expect(await keptOf("127.0.0.3", 5)).toEqual([true, true, false, false, false])
  })
})

const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`
const UNFINISHED_HEADERS = "GET / HTTP/1.1\r\nHost: localhost\r\n"

/** The status line of the connection's first answer, once its body (the app's "ok") has arrived. */
const answerOf = (connection: Connection) =>
  new Promise<string>((resolve) => {
    const check = () => {
      if (connection.received.endsWith("\r\n\r\nok")) resolve(connection.received.split("\r\n")[0]!)
    }
    connection.client.on("data", check)
    check()
  })

/** An app whose requests to /hold wait for `release`; `arrived` counts them in. */
const holdingApp = () => {
  const release = deferred<void>()
  const arrivals: Array<ReturnType<typeof deferred<void>>> = Array.from({ length: 8 }, () => deferred<void>())
  let arrived = 0
  const app: RequestListener = (incoming, response) => {
    if (incoming.url !== "/hold") return void response.end("ok")
    arrivals[arrived++]!.resolve()
    void release.promise.then(() => response.end("ok"))
  }
  return { app, release: () => release.resolve(), arrival: (index: number) => arrivals[index]!.promise }
}

describe("the connection limit", () => {
  it("makes room for a new connection by closing the one that has waited longest with no request in progress: unfinished headers, or idle since its last answer", async () => {
    const holding = holdingApp()
    const { open } = await serve({ maxConnections: 3, maxConnectionsPerAddress: 100 }, holding.app)
    const keptAlive = await open(ATTACKER)
    const idle = await open(ATTACKER)
    keptAlive.client.write(request("/"))
    expect(await answerOf(keptAlive)).toBe("HTTP/1.1 200 OK")
    // kept alive after its answer: it has waited since then, so after `idle`
    const unfinished = await open(ATTACKER, UNFINISHED_HEADERS)
    expect([keptAlive.kept, idle.kept, unfinished.kept]).toEqual([true, true, true])

    const first = await open(NORMAL_CLIENT, request("/hold"))
    expect(first.kept).toBe(true)
    await holding.arrival(0)
    expect([idle.server.destroyed, keptAlive.server.destroyed, unfinished.server.destroyed]).toEqual([
      true,
      false,
      false
    ])
    await idle.closed

    const second = await open(NORMAL_CLIENT, request("/hold"))
    expect(second.kept).toBe(true)
    await holding.arrival(1)
    expect([keptAlive.server.destroyed, unfinished.server.destroyed]).toEqual([true, false])

    const third = await open(NORMAL_CLIENT, request("/hold"))
    expect(third.kept).toBe(true)
    await holding.arrival(2)
    expect(unfinished.server.destroyed).toBe(true)
    await Promise.all([keptAlive.closed, unfinished.closed])

    holding.release()
    expect(await Promise.all([first, second, third].map(answerOf))).toEqual(Array(3).fill("HTTP/1.1 200 OK"))
  })

  it("closes a new connection when every connection has a request in progress, and serves again once one is answered", async () => {
    const holding = holdingApp()
    const { open } = await serve({ maxConnections: 2, maxConnectionsPerAddress: 100 }, holding.app)
    const held = [await open(NORMAL_CLIENT, request("/hold")), await open(NORMAL_CLIENT, request("/hold"))]
    await Promise.all([holding.arrival(0), holding.arrival(1)])

    const refused = await open(ATTACKER, UNFINISHED_HEADERS)
    expect(refused.kept).toBe(false)
    await refused.closed
    expect(refused.received).toBe("")
    expect(held.map((connection) => connection.server.destroyed)).toEqual([false, false])

    holding.release()
    expect(await Promise.all(held.map(answerOf))).toEqual(["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"])
    // both are idle now: the next connection closes one of them and is served
    const next = await open(NORMAL_CLIENT, request("/"))
    expect(next.kept).toBe(true)
    expect(await answerOf(next)).toBe("HTTP/1.1 200 OK")
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
