/**
 * A schema of the test database for one suite: dropped before the suite (a
 * crashed run's leftovers) and after it, with an admin connection for checks
 * behind the stores' back. Call at the top of a test file.
 */
import pg from "pg"
import { afterAll, beforeAll } from "vitest"
import { testDatabaseUrl } from "./TestDatabase.js"

export const scratchSchema = (name: string) => {
  const schema = `${name}_${process.pid}`
  let admin: pg.Client | undefined
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: testDatabaseUrl })
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
