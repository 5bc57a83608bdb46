/**
 * Connection floods never starve a normal client: with hundreds of idle
 * connections and slow bodies opened against the service (its own process, its
 * own file descriptors) from an attacker's address (127.0.0.2), a partner on
 * another address still gets 200 within a second. What one address opens
 * beyond its limit is closed at once, even as it reconnects whenever a slot
 * frees; the idle connections it holds are closed at the headers timeout, slow
 * bodies at the body timeout; and connections beyond the configured maximum,
 * from many addresses, are refused at once instead of being held.
 */
import { Examples } from "@kasko/core"
import { request as httpRequest } from "node:http"
import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { kaskoWith, startServiceProcess, temporaryDirectory, type ServiceProcess } from "../support.js"

const IDLE = 600
const SLOW = 200
const MAX_CONNECTIONS = 1_000
const PER_ADDRESS = 64
const ATTACKER = "127.0.0.2"
const HEADERS_TIMEOUT_MILLIS = 2_000
const BODY_TIMEOUT_MILLIS = 3_000
// Node looks for expired connections every quarter of the headers timeout (at most every second)
const CHECK_SLACK_MILLIS = 1_500

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
  const { subscription_key } = JSON.parse(
    await kaskoWith(environment, "partners", "add", "--id", "steady-partner", "--name", "Steady Partner A/S", "--json")
  )
  const token = (
    await kaskoWith(environment, "tokens", "issue", "--partner", "steady-partner", "--scopes", "offers:create")
  ).trim()
  headers = {
    authorization: `Bearer ${token}`,
    "ocp-apim-subscription-key": subscription_key,
    "content-type": "application/json"
  }
  service = await startServiceProcess(environment)
}, 60_000)
afterAll(async () => {
  await service?.stop()
  directory.remove()
}, 30_000)

interface Held {
  readonly socket: Socket
  readonly opened: number
  closedAfter?: number
  received: string
}

const open = (first?: string, localAddress = ATTACKER) =>
  new Promise<Held>((resolve, reject) => {
    const url = new URL(service.url)
    const held: Held = {
      socket: connect({ port: Number(url.port), host: url.hostname, localAddress }),
      opened: Date.now(),
      received: ""
    }
    held.socket.once("connect", () => {
      if (first !== undefined) held.socket.write(first)
      resolve(held)
    })
    held.socket.on("data", (chunk) => (held.received += String(chunk)))
    held.socket.on("close", () => (held.closedAfter ??= Date.now() - held.opened))
    held.socket.on("error", () => undefined)
    held.socket.once("error", reject)
  })

const offer = async () => {
  const started = Date.now()
  const response = await fetch(`${service.url}/insurance/car/offers`, {
    method: "POST",
    headers,
    body: JSON.stringify(Examples.offerRequest())
  })
  await response.text()
  return { status: response.status, millis: Date.now() - started }
}

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

/** An offer on a connection of its own from the normal client's address (127.0.0.1), and how long it took. */
const offerOnNewConnection = () =>
  new Promise<{ status: number; millis: number }>((resolve, reject) => {
    const url = new URL(service.url)
    const started = Date.now()
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/insurance/car/offers",
        headers: { ...headers, connection: "close" },
        agent: false,
        localAddress: "127.0.0.1",
        timeout: 5_000
      },
      (incoming) => {
        incoming.resume()
        incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, millis: Date.now() - started }))
      }
    )
    outgoing.on("timeout", () => outgoing.destroy(new Error("no answer within 5 s")))
    outgoing.on("error", reject)
    outgoing.end(JSON.stringify(Examples.offerRequest()))
  })

describe("a connection flood", () => {
  it("leaves a normal client served within a second, closes at once what one address opens over its limit, and the rest at their timeouts", async () => {
    const slowHead = `POST /insurance/car/offers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\nAuthorization: ${headers["authorization"]}\r\nocp-apim-subscription-key: ${headers["ocp-apim-subscription-key"]}\r\n\r\n{`
    const slow = await Promise.all(Array.from({ length: SLOW }, () => open(slowHead)))
    const idle = await Promise.all(Array.from({ length: IDLE }, () => open()))
    // the slow bodies dribble a byte every 300 ms, as a slowloris does
    const dribble = setInterval(() => {
      for (const held of slow) if (held.closedAfter === undefined) held.socket.write(" ")
    }, 300)
    try {
      const answers = []
      for (let round = 0; round < 10; round++) {
        answers.push(await offer())
        await sleep(100)
      }
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200))
      expect(Math.max(...answers.map((answer) => answer.millis))).toBeLessThan(1_000)
      // of the attacker's 800, its limit's worth are held: the first slow bodies; the rest were closed at once
      const held = [...slow, ...idle].filter((entry) => entry.closedAfter === undefined)
      expect(held).toHaveLength(PER_ADDRESS)
      expect(held.every((entry) => slow.includes(entry))).toBe(true)

      await sleep(BODY_TIMEOUT_MILLIS + CHECK_SLACK_MILLIS)
      const heldSlow = slow.slice(0, PER_ADDRESS)
      expect([...slow, ...idle].filter((entry) => entry.closedAfter === undefined)).toHaveLength(0)
      expect(Math.max(...heldSlow.map((entry) => entry.closedAfter!))).toBeLessThan(
        BODY_TIMEOUT_MILLIS + CHECK_SLACK_MILLIS
      )
      // a slow body is told why, in problem+json, where an answer can still be sent
      expect(
        heldSlow.filter((entry) => /^HTTP\/1\.1 408 [\s\S]*application\/problem\+json/.test(entry.received)).length
      ).toBe(PER_ADDRESS)
    } finally {
      clearInterval(dribble)
      for (const entry of [...idle, ...slow]) entry.socket.destroy()
    }
    expect(service.ended).toBeUndefined()
  }, 60_000)

  it("serves a normal client's new connections within a second while one address reconnects as soon as a slot frees", async () => {
    let reconnecting = true
    const attacker: Array<Held> = []
    const keepOpening = async () => {
      while (reconnecting) {
        const held = await open().catch(() => undefined)
        if (held === undefined) continue
        attacker.push(held)
        await new Promise<void>((resolve) => {
          held.socket.once("close", () => resolve())
          // a held connection is kept until the service closes it; the loop opens another soon after
          if (!reconnecting) resolve()
        })
        // not a busy loop: 1 050 loops reconnecting within 100 ms keep every slot the service frees taken
        await sleep(100)
      }
    }
    // more reconnecting loops than the service holds connections: every slot it frees is taken again at once
    const loops = Array.from({ length: MAX_CONNECTIONS + 50 }, () => keepOpening())
    try {
      await sleep(1_000)
      const answers = []
      for (let round = 0; round < 100; round++) answers.push(await offerOnNewConnection())
      expect(answers.filter((answer) => answer.status === 200 && answer.millis < 1_000)).toHaveLength(100)
    } finally {
      reconnecting = false
      for (const held of attacker) held.socket.destroy()
      await Promise.all(loops)
    }
    expect(service.ended).toBeUndefined()
  }, 60_000)

  it("refuses connections beyond the maximum, from many addresses, rather than holding them, and serves again after", async () => {
    // 30 addresses of 40 connections each: every one within its own limit, together over the maximum
    const addresses = Array.from({ length: 30 }, (_, index) => `127.0.1.${index + 1}`)
    const held = (
      await Promise.all(
        addresses.flatMap((address) =>
          Array.from({ length: 40 }, () => open(undefined, address).catch(() => undefined))
        )
      )
    ).filter((entry): entry is Held => entry !== undefined)
    try {
      // Node accepts what the kernel queued and closes each connection over the maximum as it does
      await sleep(2_000)
      const refused = held.filter((entry) => entry.closedAfter !== undefined)
      expect(refused.length).toBeGreaterThanOrEqual(150)
      expect(held.length - refused.length).toBeLessThanOrEqual(MAX_CONNECTIONS)
    } finally {
      for (const entry of held) entry.socket.destroy()
    }
    await sleep(300)
    expect((await offer()).status).toBe(200)
    expect(service.ended).toBeUndefined()
  }, 60_000)
})
