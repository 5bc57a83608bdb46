/**
 * Losing the database connections under load: two `kasko serve` instances on
 * one schema take quotes from 16 concurrent clients, half of them sending an
 * Idempotency-Key (whose insert runs in a transaction on a checked-out
 * client), while the service's PostgreSQL backends are terminated again and
 * again. Neither process may crash; answers are 200 or 503 with Retry-After;
 * every acknowledged quote is kept; both serve again without a restart.
 */
import { Examples } from "@kasko/core"
import { setTimeout as sleep } from "node:timers/promises"
import { describe, expect, it } from "vitest"
import { type Answer, twoInstancesOnOneSchema } from "./ServiceInstances.js"

const CLIENTS = 16
const TERMINATION_ROUNDS = 24

const { schema, instances, database, call } = twoInstancesOnOneSchema("kasko_kills", "kill-partner")

const createQuote = (instance: number, idempotencyKey?: string): Promise<Answer | "no answer"> =>
  call(
    instance,
    "POST",
    "/insurance/car/quotes",
    Examples.quoteRequest(),
    idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }
  ).catch(() => "no answer" as const)

const serviceConnections = async () =>
  Number(
    (
      await database().query("SELECT count(*) AS count FROM pg_stat_activity WHERE application_name = $1", [
        `kasko:${schema}`
      ])
    ).rows[0].count
  )

/** Terminates every backend of the service, once it has at least one again; answers how many went. */
const terminateServiceConnections = async () => {
  for (let waited = 0; (await serviceConnections()) === 0 && waited < 40; waited++) await sleep(50)
  const terminated = await database().query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
    [`kasko:${schema}`]
  )
  return terminated.rowCount ?? 0
}

/** Runs `work` over `items`, `width` at a time. */
const inParallel = async <A>(items: ReadonlyArray<A>, width: number, work: (item: A) => Promise<void>) => {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!)
    })
  )
}

describe("two instances whose database connections are terminated under load", () => {
  it("stay up, answer only 200 or 503 with Retry-After, keep every acknowledged quote and serve again without restart", async () => {
    const statuses = new Map<number | "no answer", number>()
    let withoutRetryAfter = 0
    const acknowledged = new Set<string>()
    const quotesByKey = new Map<string, Set<string>>()
    let stop = false

    const client = async (index: number) => {
      const instance = index % 2
      // clients 0, 1, 4, 5, … send keys: half of them, on both instances
      const sendsKey = Math.floor(index / 2) % 2 === 0
      for (let request = 0; !stop; request++) {
        const key = sendsKey ? `kill-${index}-${request}` : undefined
        // a 503 is retried with the same key, as the API asks of clients; without a key it is not
        for (;;) {
          const answer = await createQuote(instance, key)
          const status = answer === "no answer" ? answer : answer.status
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
          if (answer === "no answer") return
          if (answer.status === 503 && answer.retryAfter === null) withoutRetryAfter++
          if (answer.status === 200) {
            acknowledged.add(answer.body.quote_id)
            if (key !== undefined) quotesByKey.set(key, (quotesByKey.get(key) ?? new Set()).add(answer.body.quote_id))
          }
          if (answer.status === 200 || key === undefined || stop) break
        }
      }
    }

    const clients = Array.from({ length: CLIENTS }, (_, index) => client(index))
    await sleep(300)
    const terminated: Array<number> = []
    // (a crashed instance would never connect again: stop cutting then, the checks below say why)
    for (
      let round = 0;
      round < TERMINATION_ROUNDS && instances().every((instance) => instance.ended === undefined);
      round++
    ) {
      terminated.push(await terminateServiceConnections())
      await sleep(150)
    }
    await sleep(300)
    stop = true
    await Promise.all(clients)
    const crashes = instances().filter((instance) => instance.ended !== undefined)
    console.log(
      `connection kills: ${JSON.stringify({
        rounds: terminated.length,
        backendsTerminated: terminated.reduce((sum, count) => sum + count, 0),
        statuses: Object.fromEntries(statuses),
        acknowledged: acknowledged.size,
        crashes: crashes.map((instance) => instance.ended)
      })}`
    )

    // both processes are still up
    for (const crashed of crashes)
      expect.fail(`an instance ended (${crashed.ended}):\n${crashed.lastErrors.join("\n")}`)
    // every round found the service connected and cut it off
    expect(terminated).toHaveLength(TERMINATION_ROUNDS)
    expect(terminated.filter((count) => count === 0)).toEqual([])
    // only 200 or 503, and every 503 says when to retry
    expect([...statuses.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([])
    expect(withoutRetryAfter).toBe(0)
    // the load was real: trials here acknowledge 200–700 quotes
    expect(acknowledged.size).toBeGreaterThan(50)
    // a key retried after a 503 answers the quote it first created, never a second one
    expect([...quotesByKey].filter(([, quotes]) => quotes.size !== 1)).toEqual([])

    // every acknowledged quote is stored, and each instance retrieves it
    const stored = await database().query(`SELECT quote_id FROM ${schema}.quotes WHERE quote_id = ANY($1)`, [
      [...acknowledged]
    ])
    expect(stored.rowCount).toBe(acknowledged.size)
    const unreadable: Array<string> = []
    await inParallel([...acknowledged], 16, async (quoteId) => {
      for (const instance of [0, 1]) {
        const read = await call(instance, "GET", `/insurance/car/quotes/${quoteId}`)
        if (read.status !== 200) unreadable.push(`${quoteId} on instance ${instance}: ${read.status}`)
      }
    })
    expect(unreadable).toEqual([])

    // both serve again, without restart, with and without a key
    for (const instance of [0, 1]) {
      expect((await call(instance, "POST", "/insurance/car/quotes", Examples.quoteRequest())).status).toBe(200)
      const keyed = await call(instance, "POST", "/insurance/car/quotes", Examples.quoteRequest(), {
        "idempotency-key": `after-kills-${instance}`
      })
      expect(keyed.status).toBe(200)
    }
  }, 60_000)
})
