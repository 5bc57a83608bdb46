/**
 * Connection floods never starve a normal client: with hundreds of idle
 * connections and slow bodies open against the service (its own process, its
 * own file descriptors), a partner still gets 200 within a second; idle
 * connections are closed at the headers timeout, slow bodies at the body
 * timeout; and connections beyond the configured maximum are refused at once
 * instead of being held.
 */
import { Examples } from "@kasko/core"
import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { kaskoWith, startServiceProcess, temporaryDirectory, type ServiceProcess } from "../support.js"

const IDLE = 600
const SLOW = 200
const MAX_CONNECTIONS = 1_000
const HEADERS_TIMEOUT_MILLIS = 2_000
const BODY_TIMEOUT_MILLIS = 3_000
// Node looks for expired connections every quarter of the headers timeout (at most every second)
const CHECK_SLACK_MILLIS = 1_500

const directory = temporaryDirectory("kasko-flood-")
const environment = {
  KASKO_DATA_DIR: directory.path,
  KASKO_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
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

const open = (first?: string) =>
  new Promise<Held>((resolve, reject) => {
    const url = new URL(service.url)
    const held: Held = { socket: connect(Number(url.port), url.hostname), opened: Date.now(), received: "" }
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

describe("a connection flood", () => {
  it("leaves a normal client served within a second, and closes idle connections and slow bodies at their timeouts", async () => {
    const slowHead = `POST /insurance/car/offers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\nAuthorization: ${headers["authorization"]}\r\nocp-apim-subscription-key: ${headers["ocp-apim-subscription-key"]}\r\n\r\n{`
    const idle = await Promise.all(Array.from({ length: IDLE }, () => open()))
    const slow = await Promise.all(Array.from({ length: SLOW }, () => open(slowHead)))
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

      await sleep(BODY_TIMEOUT_MILLIS + CHECK_SLACK_MILLIS)
      expect(idle.filter((held) => held.closedAfter === undefined)).toHaveLength(0)
      expect(Math.max(...idle.map((held) => held.closedAfter!))).toBeLessThan(
        HEADERS_TIMEOUT_MILLIS + CHECK_SLACK_MILLIS
      )
      expect(slow.filter((held) => held.closedAfter === undefined)).toHaveLength(0)
      expect(Math.max(...slow.map((held) => held.closedAfter!))).toBeLessThan(BODY_TIMEOUT_MILLIS + CHECK_SLACK_MILLIS)
      // a slow body is told why, in problem+json, where an answer can still be sent
      expect(
        slow.filter((held) => /^HTTP\/1\.1 408 [\s\S]*application\/problem\+json/.test(held.received)).length
      ).toBe(SLOW)
    } finally {
      clearInterval(dribble)
      for (const held of [...idle, ...slow]) held.socket.destroy()
    }
    expect(service.ended).toBeUndefined()
  }, 60_000)

  it("refuses connections beyond the maximum rather than holding them, and serves again after", async () => {
    const held = (
      await Promise.all(Array.from({ length: MAX_CONNECTIONS + 150 }, () => open().catch(() => undefined)))
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
