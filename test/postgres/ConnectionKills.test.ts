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
// quotes acknowledged after each cut before the next: under load, between cuts, as a busy service sees them
const ACKNOWLEDGED_PER_ROUND = 8

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

const crashed = () => instances().some((instance) => instance.ended !== undefined)

/** Terminates every backend of the service, once it has at least one again; answers how many went. */
const terminateServiceConnections = async () => {
  // polled (the server tells nobody of a new connection), paced by 10 ms; a crashed instance never connects again
  while ((await serviceConnections()) === 0 && !crashed()) await sleep(10)
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
    // told of every answer: the rounds are paced by the quotes acknowledged, not by the clock
    const waiting: Array<() => void> = []
    const answered = () => {
      for (const wake of waiting.splice(0)) wake()
    }
    /** Until `count` more quotes have been acknowledged (or an instance has crashed: the checks below say so). */
    const acknowledgedMore = async (count: number) => {
      const target = acknowledged.size + count
      while (acknowledged.size < target && !crashed()) await new Promise<void>((wake) => waiting.push(wake))
    }

    const client = async (index: number) => {
      const instance = index % 2
      // clients 0, 1, 4, 5, … send keys: half of them, on both instances
      const sendsKey = Math.floor(index / 2) % 2 === 0
      for (let request = 0; !stop; request++) {
        const key = sendsKey ? `kill-${index}-${request}` : undefined
        // a 503 is retried with the same key, as the API asks of clients; without a key it is not
        for (;;) {
          const answer = await createQuote(instance, key)
          answered()
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
    // the load under way, then each cut followed by quotes acknowledged again: the service recovered in between
    await acknowledgedMore(CLIENTS)
    const terminated: Array<number> = []
    // (a crashed instance would never connect again: stop cutting then, the checks below say why)
    for (let round = 0; round < TERMINATION_ROUNDS && !crashed(); round++) {
      terminated.push(await terminateServiceConnections())
      await acknowledgedMore(ACKNOWLEDGED_PER_ROUND)
    }
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
    // the load was real, and every round was served between cuts
    expect(acknowledged.size).toBeGreaterThanOrEqual(CLIENTS + TERMINATION_ROUNDS * ACKNOWLEDGED_PER_ROUND)
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
