/**
 * PostgreSQL follows the same migration plan as SQLite: a schema from a newer
 * kasko, or one whose applied migration was edited since, is refused
 * untouched with PostgresOpenRefused naming why.
 */
import { QuoteStore } from "@kasko/core"
import { PostgresMigrations, PostgresOpenRefused, PostgresStores } from "@kasko/postgres"
import { Effect, Exit, Option } from "effect"
import { describe, expect, it } from "vitest"
import { scratchSchema, testDatabaseUrl as providedUrl } from "@kasko/store-contracts/postgres"

const testDatabaseUrl = providedUrl()
const { schema: SCHEMA, admin } = scratchSchema("kasko_refusal")
const open = () =>
  Effect.runPromiseExit(
    QuoteStore.QuoteStore.pipe(
      Effect.asVoid,
      Effect.provide(PostgresStores.layer({ connectionString: testDatabaseUrl, schema: SCHEMA, poolSize: 2 }))
    )
  )

const refusalOf = (exit: Exit.Exit<void, unknown>) => {
  const failure = Option.getOrUndefined(Exit.findErrorOption(exit))
  expect(failure).toBeInstanceOf(PostgresOpenRefused)
  return (failure as PostgresOpenRefused).reason
}

describe("PostgreSQL schema migrations", () => {
  it("migrates a new schema, refuses it once it is newer than this kasko, and once an applied migration was edited", async () => {
    expect(Exit.isSuccess(await open())).toBe(true)
    const latest = PostgresMigrations.MIGRATIONS.at(-1)!.version

    await admin().query(
      `INSERT INTO ${SCHEMA}.schema_migrations (version, name, checksum) VALUES (99, 'from the future', 'x')`
    )
    expect(refusalOf(await open())).toContain(`schema version 99, newer than this kasko knows (up to ${latest})`)

    await admin().query(`DELETE FROM ${SCHEMA}.schema_migrations WHERE version = 99`)
    expect(Exit.isSuccess(await open())).toBe(true)
    await admin().query(`UPDATE ${SCHEMA}.schema_migrations SET checksum = 'edited' WHERE version = 1`)
    expect(refusalOf(await open())).toMatch(
      /migration 1 \(.*\) differs from the one applied to this database; applied migrations must never be edited/
    )
    // refused untouched: nothing was recorded or changed
    expect(
      (await admin().query(`SELECT version FROM ${SCHEMA}.schema_migrations ORDER BY version`)).rows.map(
        (row) => row.version
      )
    ).toEqual(Array.from({ length: latest }, (_, index) => index + 1))
  })
})
