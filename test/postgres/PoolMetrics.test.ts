/**
 * The PostgreSQL pool in the metrics: with the quotes table locked from
 * another connection, more concurrent retrievals than the pool has
 * connections hold every connection and queue the rest — the scrape shows the
 * pool in use and the queries waiting; scrapes meanwhile answer, and do not
 * pile reads of their own into the queue; once the lock goes, all is idle again
 * and nothing waits.
 */
import { Examples } from "@kasko/core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { scrape as scrapeMetrics, scrapeUntil } from "../http/Prometheus.js"
import { startTestService, type TestService } from "../http/support.js"
import { scratchSchema } from "@kasko/store-contracts/postgres"
import { testDatabaseUrl } from "./TestDatabase.js"

const { schema, admin } = scratchSchema("kasko_pool_metrics")
const POOL_SIZE = 10
let test: TestService

const scrape = () => scrapeMetrics(test.service.metricsPort)

beforeAll(async () => {
  test = await startTestService({
    environment: { KASKO_DATABASE_URL: testDatabaseUrl, KASKO_DATABASE_SCHEMA: schema, KASKO_METRICS_PORT: "0" }
  })
})
afterAll(() => test.stop())

it("shows the pool's connections in use and the queries waiting for one", async () => {
  const created = await fetch(`${test.url}/insurance/car/quotes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(Examples.quoteRequest())
  })
  const { quote_id } = (await created.json()) as { quote_id: string }
  const locker = admin()
  await locker.query("BEGIN")
  await locker.query(`LOCK TABLE ${schema}.quotes IN ACCESS EXCLUSIVE MODE`)
  const retrievals = Array.from({ length: POOL_SIZE + 5 }, () =>
    fetch(`${test.url}/insurance/car/quotes/${quote_id}`).then((answer) => answer.status)
  )
  try {
    let samples = await scrapeUntil(
      test.service.metricsPort,
      (scraped) => (scraped.get("kasko_postgres_pool_waiting") ?? 0) >= 5
    )
    // scrapes go on answering, and queue at most one read of the outbox's backlog behind the retrievals
    // (beside the webhook dispatcher's one claim: five retrievals, one read, one claim at most)
    for (let scrapes = 0; scrapes < 5; scrapes++) samples = await scrape()
    expect(samples.get('kasko_postgres_pool_connections{state="in_use"}')).toBe(POOL_SIZE)
    expect(samples.get("kasko_postgres_pool_waiting")).toBeGreaterThanOrEqual(5)
    expect(samples.get("kasko_postgres_pool_waiting")).toBeLessThanOrEqual(7)
  } finally {
    await locker.query("COMMIT")
  }
  expect(await Promise.all(retrievals)).toEqual(Array(POOL_SIZE + 5).fill(200))
  // the queued reads and claim finish too: the pool comes back to idle
  const after = await scrapeUntil(
    test.service.metricsPort,
    (scraped) => scraped.get('kasko_postgres_pool_connections{state="in_use"}') === 0
  )
  expect(after.get('kasko_postgres_pool_connections{state="in_use"}')).toBe(0)
  // nothing waits any more (the scrape's own read of the outbox does not count)
  expect(after.get("kasko_postgres_pool_waiting")).toBe(0)
})
