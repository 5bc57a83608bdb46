/**
 * Two `kasko serve` processes on one PostgreSQL schema of their own, for the
 * suites about several instances: started before a file's tests, stopped and
 * the schema dropped after. Each process's exit is recorded, so a suite can
 * tell a crash from an answer.
 */
import pg from "pg"
import { afterAll, beforeAll } from "vitest"
import { kaskoWith, startServiceProcess, temporaryDirectory, type ServiceProcess } from "../support.js"
import { testDatabaseUrl } from "./TestDatabase.js"

/** One running `kasko serve`: its URL, and how it ended if it did. */
export type ServiceInstance = ServiceProcess

/** A service answer, its body parsed. */
export interface Answer {
  readonly status: number
  readonly text: string
  readonly body: any
  readonly retryAfter: string | null
}

/**
 * Starts two instances on the schema `<name>_<pid>` before the file's tests; the returned object reaches them.
 * They reach the test database at `databaseUrl` (a relay in front of it, say); checks go to it directly.
 */
export const twoInstancesOnOneSchema = (name: string, partnerId: string, databaseUrl: string = testDatabaseUrl) => {
  const schema = `${name}_${process.pid}`
  const directory = temporaryDirectory(`${name}-`)
  const environment = {
    KASKO_DATA_DIR: directory.path,
    KASKO_DATABASE_URL: databaseUrl,
    KASKO_DATABASE_SCHEMA: schema,
    // these suites load the service on purpose: the rate limit is not under test here
    KASKO_RATE_LIMIT_PER_MINUTE: "1000000",
    // webhook suites subscribe a receiver on 127.0.0.1 over http
    KASKO_WEBHOOKS_ALLOW_INSECURE: "true",
    // one public URL for both, as instances behind one load balancer have: the quotes' document links name it
    KASKO_PUBLIC_URL: "https://api.forsikring.example"
  }
  const instances: Array<ServiceInstance> = []
  let headers: Record<string, string> = {}
  let database: pg.Client

  const kasko = (...args: Array<string>) => kaskoWith(environment, ...args)
  const startInstance = () => startServiceProcess(environment)

  beforeAll(async () => {
    database = new pg.Client({ connectionString: testDatabaseUrl })
    await database.connect()
    await database.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    const { subscription_key } = JSON.parse(
      await kasko("partners", "add", "--id", partnerId, "--name", "Fleet Partner A/S", "--json")
    )
    const token = (
      await kasko(
        "tokens",
        "issue",
        "--partner",
        partnerId,
        "--scopes",
        "offers:create quotes:create quotes:read quotes:activate"
      )
    ).trim()
    headers = {
      authorization: `Bearer ${token}`,
      "ocp-apim-subscription-key": subscription_key,
      "content-type": "application/json"
    }
    instances.push(...(await Promise.all([startInstance(), startInstance()])))
  }, 60_000)

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()))
    await database.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await database.end()
    directory.remove()
  })

  return {
    schema,
    /** Runs a `kasko` command on the instances' database. */
    kasko,
    /** The two instances, in start order. */
    instances: () => instances,
    /** The database, for checks behind the service's back. */
    database: () => database,
    /** Sends a request to instance 0 or 1 with the partner's credentials. */
    call: async (
      instance: number,
      method: string,
      path: string,
      body?: unknown,
      extra: Record<string, string> = {}
    ): Promise<Answer> => {
      const response = await fetch(`${instances[instance]!.url}${path}`, {
        method,
        headers: { ...headers, ...extra },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await response.text()
      return {
        status: response.status,
        text,
        body: text === "" ? undefined : JSON.parse(text),
        retryAfter: response.headers.get("retry-after")
      }
    }
  }
}
