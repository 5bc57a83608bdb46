/**
 * The PostgreSQL server a run's PostgreSQL suites use, and a scratch schema
 * on it per suite: what the PostgreSQL adapter's own tests and the
 * repository's multi-instance suites share. The server is the one the vitest
 * `postgres` project provides (the configured one, or an embedded one started
 * for the run: the repository's test/postgres/TestDatabaseSetup.ts).
 * @module
 */
import pg from "pg"
import { afterAll, beforeAll, inject } from "vitest"

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection URL of the PostgreSQL server this run's PostgreSQL suites use. */
    testDatabaseUrl: string
  }
}

/** Connection URL of the PostgreSQL server for this run's PostgreSQL suites; throws outside the `postgres` project. */
export const testDatabaseUrl = (): string => {
  const provided = inject("testDatabaseUrl")
  // a suite run outside vitest.config.ts's `postgres` project has no server: fail, never skip
  if (typeof provided !== "string")
    throw new Error(
      "no test database: run the PostgreSQL suites through vitest.config.ts, whose postgres project provides one"
    )
  return provided
}

/**
 * A schema of the test database for one suite: dropped before the suite (a
 * crashed run's leftovers) and after it, with an admin connection for checks
 * behind the stores' back. Call at the top of a test file.
 */
export const scratchSchema = (name: string) => {
  const schema = `${name}_${process.pid}`
  let admin: pg.Client | undefined
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: testDatabaseUrl() })
    await admin.connect()
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  })
  afterAll(async () => {
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await admin?.end()
  })
  return {
    schema,
    /** The admin connection, open from the suite's start to its end. */
    admin: (): pg.Client => {
      if (admin === undefined) throw new Error("the scratch schema's connection opens before the suite's tests")
      return admin
    }
  }
}
