/**
 * One rate limit across instances on PostgreSQL (no Redis): two services on
 * one schema count a key's requests in the database together, so of a burst
 * within one window only the limit passes. While the database does not count
 * in time, requests are still served, counted by the instance alone — and
 * not counted again in the database once it answers.
 */
import { type AddressInfo, connect, createServer, type Socket } from "node:net"
import { setImmediate as nextTurn } from "node:timers/promises"
import { afterEach, expect, it } from "vitest"
import { burst, count, startInstances } from "../http/RateLimitBurst.js"
import { startTestService, type TestService } from "../http/support.js"
import { scratchSchema } from "@kasko/store-contracts/postgres"
import { testDatabaseUrl } from "./TestDatabase.js"

const { schema, admin } = scratchSchema("kasko_rate_limit")
// small: while the table is locked, each request waits the limiter's 250 ms (and a margin) twice before counting alone
const LIMIT = 4
const ENVIRONMENT = {
  KASKO_DATABASE_URL: testDatabaseUrl,
  KASKO_DATABASE_SCHEMA: schema,
  KASKO_RATE_LIMIT_PER_MINUTE: String(LIMIT)
}

/** Whether a connection with this application_name is in a statement or a transaction. */
const busy = async (applicationName: string) =>
  Number(
    (
      await admin().query(
        "SELECT count(*) AS count FROM pg_stat_activity WHERE application_name = $1 AND state <> 'idle'",
        [applicationName]
      )
    ).rows[0].count
  ) > 0

const started: Array<TestService> = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((service) => service.stop()))
})

it("holds for two instances together: of 3 × the limit's requests in one window, the limit passes", async () => {
  const statuses = await burst(await startInstances(2, ENVIRONMENT, started), 3 * LIMIT)
  expect(count(statuses, 200)).toBe(LIMIT)
  expect(count(statuses, 429)).toBe(2 * LIMIT)
})

it("is counted by the instance alone while the table cannot be written, and requests are still served", async () => {
  const [instance] = await startInstances(1, ENVIRONMENT, started)
  const countedInTable = async () =>
    Number((await admin().query(`SELECT COALESCE(SUM(points), 0) AS used FROM ${schema}.rate_limits`)).rows[0].used)
  const countedBefore = await countedInTable()
  const locker = admin()
  await locker.query("BEGIN")
  await locker.query(`LOCK TABLE ${schema}.rate_limits IN ACCESS EXCLUSIVE MODE`)
  try {
    const statuses = await burst([instance!], LIMIT + 2)
    expect(count(statuses, 200)).toBe(LIMIT)
    expect(count(statuses, 429)).toBe(2)
  } finally {
    await locker.query("ROLLBACK")
  }
  expect(instance!.logLines.some((line) => String(line["msg"]).startsWith("PostgreSQL does not answer"))).toBe(true)
  // the counts given up on were not made later, once the table was free: each request is counted once, alone.
  // Made or not, a count is over once the counts' connections are idle (polled: the server tells nobody)
  while (await busy(`kasko:${schema}:rate-limit`)) await nextTurn()
  expect(await countedInTable()).toBe(countedBefore)
})

it("prunes ended windows even when that takes longer than a count may wait", async () => {
  const client = admin()
  // windows long ended: the pruning at start deletes them
  await client.query(
    `INSERT INTO ${schema}.rate_limits (key, points, expire) VALUES ('old-a', 1, 0), ('old-b', 2, 60000)`
  )
  const locker = admin()
  await locker.query("BEGIN")
  await locker.query(`LOCK TABLE ${schema}.rate_limits IN ACCESS EXCLUSIVE MODE`)
  const pruneWaiting = async () =>
    Number(
      (
        await client.query(
          "SELECT count(*) AS count FROM pg_stat_activity WHERE query LIKE 'DELETE FROM rate_limits%' AND wait_event_type = 'Lock'"
        )
      ).rows[0].count
    ) > 0
  try {
    started.push(await startTestService({ environment: ENVIRONMENT }))
    // polled: the server tells nobody
    while (!(await pruneWaiting())) await nextTurn()
    // held past a count's 250 ms: until a count asked for after the pruning began has given up on the lock (the
    // request is answered, counted by the instance alone)
    const [served] = await burst(started, 1)
    expect(served).toBe(200)
  } finally {
    await locker.query("ROLLBACK")
  }
  // the pruning's delete, waiting for the lock until now, is over once its connection is idle or gone
  while (await busy(`kasko:${schema}:rate-limit-pruning`)) await nextTurn()
  expect(await remainingKeys("old-")).toBe(0)
})

/** How many rows of rate-limit windows whose keys start with `prefix` are left. */
const remainingKeys = async (prefix: string) =>
  Number(
    (await admin().query(`SELECT count(*) AS count FROM ${schema}.rate_limits WHERE key LIKE $1`, [`${prefix}%`]))
      .rows[0].count
  )

/**
 * A TCP proxy to `target`, reading each connection's startup message (sent in clear, with its application_name):
 * it closes at once the first whose message names `refusedOnce` (a failing connection), and holds those naming
 * `holding` unconnected until `release` (a slow way to the database, ordered by the test rather than a timer).
 */
const proxyTo = async (target: URL, options: { refusedOnce?: string; holding?: string }) => {
  const sockets = new Set<Socket>()
  let refused = false
  let released = false
  const held: Array<{ readonly startup: Buffer; readonly client: Socket; readonly connect: () => void }> = []
  let heard: () => void = () => undefined
  const changed = () => heard()
  const server = createServer((client) => {
    sockets.add(client)
    client.once("data", (startup) => {
      if (options.refusedOnce !== undefined && !refused && startup.includes(options.refusedOnce)) {
        refused = true
        client.destroy()
        return
      }
      // the client says nothing more until the server answers its startup: nothing arrives meanwhile
      const connectUpstream = () => {
        const upstream = connect(Number(target.port || 5432), target.hostname)
        sockets.add(upstream)
        upstream.write(startup)
        client.pipe(upstream).pipe(client)
        const close = () => {
          client.destroy()
          upstream.destroy()
        }
        client.on("error", close).on("close", close)
        upstream.on("error", close).on("close", close)
      }
      if (released || options.holding === undefined || !startup.includes(options.holding)) return connectUpstream()
      held.push({ startup, client, connect: connectUpstream })
      client.once("close", changed)
      changed()
    })
    client.on("error", () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = new URL(target)
  url.hostname = "127.0.0.1"
  url.port = String((server.address() as AddressInfo).port)
  /** The held connections naming `name`: whether each is still open, its client still waiting. */
  const heldNaming = (name: string) =>
    held.filter((connection) => connection.startup.includes(name)).map((connection) => !connection.client.destroyed)
  return {
    url: url.toString(),
    heldNaming,
    /** Settles once `holds` says so of the held connections: told of every one held, and every one given up. */
    until: (holds: () => boolean) =>
      new Promise<void>((resolve) => {
        heard = () => {
          if (holds()) resolve()
        }
        heard()
      }),
    release: () => {
      released = true
      for (const connection of held.splice(0)) if (!connection.client.destroyed) connection.connect()
    },
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

it("prunes ended windows when connecting takes longer than a count may wait", async () => {
  await admin().query(`INSERT INTO ${schema}.rate_limits (key, points, expire) VALUES ('slow-a', 1, 0)`)
  // the limiter's connections (the counts' and the pruning's) are held unconnected until a count has given up on
  // its own after its 250 ms: the pruning, which asked first, must still be waiting then
  const pruning = `kasko:${schema}:rate-limit-pruning`
  const proxy = await proxyTo(new URL(testDatabaseUrl), { holding: `kasko:${schema}:rate-limit` })
  try {
    started.push(await startTestService({ environment: { ...ENVIRONMENT, KASKO_DATABASE_URL: proxy.url } }))
    await proxy.until(() => proxy.heldNaming(pruning).length > 0)
    const [served] = await burst(started, 1)
    expect(served).toBe(200)
    // the count's connection, given up on: held and closed by its client
    await proxy.until(() => proxy.heldNaming(`kasko:${schema}:rate-limit\u0000`).includes(false))
    expect(proxy.heldNaming(pruning)).toEqual([true])
    proxy.release()
    // polled, with no give-up: a pruning that gave up would not delete them until its next try
    while ((await remainingKeys("slow-")) > 0) await nextTurn()
  } finally {
    await Promise.all(started.splice(0).map((service) => service.stop()))
    await proxy.close()
  }
})

it("prunes ended windows though its first try fails, and says so in the log", async () => {
  await admin().query(`INSERT INTO ${schema}.rate_limits (key, points, expire) VALUES ('retried-a', 1, 0)`)
  const proxy = await proxyTo(new URL(testDatabaseUrl), { refusedOnce: "rate-limit-pruning" })
  try {
    const service = await startTestService({ environment: { ...ENVIRONMENT, KASKO_DATABASE_URL: proxy.url } })
    started.push(service)
    await service.logged((line) => String(line["msg"]).startsWith("The pruning of ended rate-limit windows failed"))
    // polled, with no give-up: a pruning tried again only 5 minutes later would leave them, and the test runs out
    while ((await remainingKeys("retried-")) > 0) await nextTurn()
  } finally {
    await Promise.all(started.splice(0).map((service) => service.stop()))
    await proxy.close()
  }
})
