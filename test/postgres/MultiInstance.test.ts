/**
 * Several instances, one PostgreSQL database: two `kasko serve` processes on
 * two ports share a schema. Quotes move freely between them; concurrent
 * activations and same-key creations spread over both resolve to one; killing
 * the database connections mid-traffic costs 503s at most, loses nothing, and
 * needs no restart.
 */
import { Examples } from "@kasko/core"
import { runCli } from "@kasko/server"
import { spawn, type ChildProcess } from "node:child_process"
import { join } from "node:path"
import { createInterface } from "node:readline"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import { testDatabaseUrl } from "./TestDatabase.js"

const SCHEMA = `kasko_instances_${process.pid}`
const MAIN = join(import.meta.dirname, "..", "..", "packages", "server", "dist", "src", "main.js")
const directory = temporaryDirectory("kasko-instances-")
const environment = { KASKO_DATA_DIR: directory.path, KASKO_DATABASE_URL: testDatabaseUrl, KASKO_DATABASE_SCHEMA: SCHEMA }

let instances: Array<{ child: ChildProcess; url: string }> = []
let headers: Record<string, string> = {}
let database: pg.Client

const kasko = async (...args: Array<string>) => {
  const saved = { ...process.env }
  Object.assign(process.env, environment)
  try {
    const result = await runCli(args)
    if (result.exitCode !== 0) throw new Error(result.stderr)
    return result.stdout
  } finally {
    for (const key of Object.keys(environment)) delete process.env[key]
    Object.assign(process.env, saved)
  }
}

const startInstance = () =>
  new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, "serve"], {
      env: { ...process.env, ...environment, PORT: "0", HOST: "127.0.0.1", KASKO_LOG_LEVEL: "warn" },
      stdio: ["ignore", "ignore", "pipe"]
    })
    child.on("error", reject)
    createInterface({ input: child.stderr! }).on("line", (line) => {
      const match = /serves on (http:\/\/[^ ]+)/.exec(line)
      if (match) resolve({ child, url: match[1]! })
    })
  })

beforeAll(async () => {
  database = new pg.Client({ connectionString: testDatabaseUrl })
  await database.connect()
  await database.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`)
  const { subscription_key } = JSON.parse(await kasko("partners", "add", "--id", "fleet-partner", "--name", "Fleet Partner A/S"))
  const token = (await kasko("tokens", "issue", "--partner", "fleet-partner", "--scopes", "offers:create quotes:create quotes:read quotes:activate")).trim()
  headers = { authorization: `Bearer ${token}`, "ocp-apim-subscription-key": subscription_key, "content-type": "application/json" }
  instances = await Promise.all([startInstance(), startInstance()])
}, 60_000)

afterAll(async () => {
  await Promise.all(instances.map(({ child }) => new Promise((resolve) => (child.once("exit", resolve), child.kill("SIGTERM")))))
  await database.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`)
  await database.end()
  directory.remove()
})

const call = async (instance: number, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
  const response = await fetch(`${instances[instance]!.url}${path}`, {
    method,
    headers: { ...headers, ...extra },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, text, body: text === "" ? undefined : JSON.parse(text), retryAfter: response.headers.get("retry-after") }
}

const quotesOfPartner = async () =>
  Number((await database.query(`SELECT count(*) AS count FROM ${SCHEMA}.quotes WHERE partner_id = 'fleet-partner'`)).rows[0].count)

describe("two instances, one PostgreSQL database", () => {
  it("reads and activates on one instance the quote created on the other", async () => {
    const created = await call(0, "POST", "/insurance/car/quotes", Examples.quoteRequest())
    expect(created.status).toBe(200)
    const readElsewhere = await call(1, "GET", `/insurance/car/quotes/${created.body.quote_id}`)
    expect(readElsewhere.text).toBe(created.text)
    expect((await call(1, "POST", `/insurance/car/quotes/${created.body.quote_id}/activation`)).status).toBe(200)
    const activated = await call(0, "GET", `/insurance/car/quotes/${created.body.quote_id}`)
    expect(activated.body.activated_at).toMatch(/Z$/)
  })

  it("records exactly one activation of 50 concurrent ones spread over both instances", async () => {
    const created = await call(0, "POST", "/insurance/car/quotes", Examples.quoteRequest())
    const path = `/insurance/car/quotes/${created.body.quote_id}/activation`
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => call(index % 2, "POST", path)))
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 50 }, () => 200))
    const views = await Promise.all([0, 1].map((instance) => call(instance, "GET", `/insurance/car/quotes/${created.body.quote_id}`)))
    expect(views[0]!.body.activated_at).toBe(views[1]!.body.activated_at)
    const stored = await database.query(`SELECT activated_at FROM ${SCHEMA}.quotes WHERE quote_id = $1`, [created.body.quote_id])
    expect(new Date(Number(stored.rows[0].activated_at)).toISOString()).toBe(views[0]!.body.activated_at)
  })

  it("creates one quote from 20 concurrent same-key requests spread over both instances", async () => {
    const before = await quotesOfPartner()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => call(index % 2, "POST", "/insurance/car/quotes", Examples.quoteRequest(), { "idempotency-key": "fleet-burst-1" }))
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200))
    expect(new Set(answers.map((answer) => answer.body.quote_id)).size).toBe(1)
    expect(await quotesOfPartner()).toBe(before + 1)
  })

  it("survives its database connections being killed mid-traffic: 503 at most, nothing acknowledged lost, no restart", async () => {
    const acknowledged: Array<string> = []
    const statuses = new Map<number, number>()
    let stop = false
    const traffic = async (instance: number) => {
      for (let step = 0; !stop; step++) {
        const answer = await call(instance, "POST", "/insurance/car/quotes", Examples.quoteRequest())
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        if (answer.status === 200) acknowledged.push(answer.body.quote_id)
        else expect(answer.retryAfter).toBe("5")
      }
    }
    const clients = Array.from({ length: 8 }, (_, index) => traffic(index % 2))
    await new Promise((resolve) => setTimeout(resolve, 500))
    for (let round = 0; round < 3; round++) {
      const killed = await database.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [`kasko:${SCHEMA}`])
      expect(killed.rowCount).toBeGreaterThan(0)
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
    stop = true
    await Promise.all(clients)

    console.log(`failover: ${JSON.stringify({ statuses: Object.fromEntries(statuses), acknowledged: acknowledged.length })}`)
    expect([...statuses.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([])
    expect(acknowledged.length).toBeGreaterThan(20)
    // recovered without restart, on both instances
    for (const instance of [0, 1]) expect((await call(instance, "POST", "/insurance/car/quotes", Examples.quoteRequest())).status).toBe(200)
    // every acknowledged quote is there
    const stored = await database.query(`SELECT quote_id FROM ${SCHEMA}.quotes WHERE quote_id = ANY($1)`, [acknowledged])
    expect(stored.rowCount).toBe(acknowledged.length)
  }, 60_000)
})
