/**
 * Upgrades keep data (issue 45), on PostgreSQL: the schema each fixture's release wrote, restored from its
 * `pg_dump` into a database of its own, opens under this kasko, is migrated to this kasko's schema, and answers
 * every read — quotes, partners, keys, webhook subscriptions and deliveries — as it answered that release
 * (test/upgrade/UpgradeFixture.ts). And once its schema is newer than this kasko's, `kasko serve` refuses it with
 * the words the operations guide quotes, and no row, table or index of it changes. (SchemaRefusal.test.ts in
 * adapters/postgres holds the store to the same refusal, and to refusing an edited migration.)
 */
import { PostgresMigrations, PostgresStores } from "@kasko/postgres"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { setImmediate as nextTurn } from "node:timers/promises"
import { gunzipSync } from "node:zlib"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import {
  FIXTURE_FILES,
  FIXTURE_SCHEMA,
  FIXTURES,
  fixtureNames,
  READ_AT,
  readAnswers,
  readRecording,
  request,
  serviceAt,
  tokenFor
} from "../upgrade/UpgradeFixture.js"
import { OPERATIONS_GUIDE, refusalWords, serveOnce } from "../upgrade/Refusal.js"
import { testDatabaseUrl } from "./TestDatabase.js"

/**
 * The statements of a plain `pg_dump`, to send as one query. pg_dump since 15.14 brackets them in psql's
 * `\restrict` and `\unrestrict`, which only guard psql itself; any other psql command would be a dump this
 * restore cannot read.
 */
const statementsOf = (dump: string): string =>
  dump
    .split("\n")
    .filter((line) => {
      if (!line.startsWith("\\")) return true
      if (/^\\(un)?restrict /.test(line)) return false
      throw new Error(`a psql command in the dump: ${line}`)
    })
    .join("\n")

let databases = 0

/** A database of its own on the test server holding the fixture's dump, dropped after the file's tests. */
const restoredFixture = async (name: string, cleanUp: Array<() => Promise<void>>) => {
  const database = `kasko_upgrade_${process.pid}_${++databases}`
  const server = new pg.Client({ connectionString: testDatabaseUrl })
  await server.connect()
  await server.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  await server.query(`CREATE DATABASE ${database}`)
  const url = new URL(testDatabaseUrl)
  url.pathname = `/${database}`
  const client = new pg.Client({ connectionString: url.toString() })
  await client.connect()
  cleanUp.push(async () => {
    await client.end()
    await server.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
    await server.end()
  })
  await client.query(
    statementsOf(gunzipSync(readFileSync(join(FIXTURES, name, FIXTURE_FILES.postgresDump))).toString("utf8"))
  )
  // pg_dump's session settings (an empty search_path) stay on this connection: name the schema in every check
  await client.query("RESET ALL")
  return { url: url.toString(), client }
}

const appliedVersions = async (client: pg.Client): Promise<Array<number>> =>
  (await client.query(`SELECT version FROM ${FIXTURE_SCHEMA}.schema_migrations ORDER BY version`)).rows.map(
    (row) => row.version
  )

/** Every row of every table of the schema, and the schema itself: its tables' columns, its indexes, its triggers. */
const everything = async (client: pg.Client) => {
  const tables = (
    await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name", [
      FIXTURE_SCHEMA
    ])
  ).rows.map((row) => row.table_name as string)
  const rows: Record<string, Array<string>> = {}
  for (const table of tables)
    rows[table] = (await client.query(`SELECT * FROM ${FIXTURE_SCHEMA}.${table}`)).rows.map((row) =>
      JSON.stringify(row)
    )
  for (const table of tables) rows[table]!.sort()
  const definitions = async (query: string) =>
    (await client.query(query, [FIXTURE_SCHEMA])).rows.map((row) => JSON.stringify(row)).sort()
  return {
    rows,
    columns: await definitions(
      "SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = $1"
    ),
    indexes: await definitions("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1"),
    triggers: await definitions(
      "SELECT trigger_name, event_object_table, action_statement FROM information_schema.triggers WHERE trigger_schema = $1"
    )
  }
}

/**
 * Waits until no rate-limit pruning of the fixture's schema is connected: the service starts one on a connection of
 * its own (PostgresRateLimiter.ts) and does not wait for it when it stops, so its DELETE of the fixture's rate-limit
 * rows (their windows ended when it was recorded) may still land after the service has stopped.
 */
const rateLimitPruningEnded = async (client: pg.Client) => {
  const connected = async () =>
    (
      await client.query(
        "SELECT count(*)::int AS connected FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
        [`kasko:${FIXTURE_SCHEMA}:rate-limit-pruning`]
      )
    ).rows[0].connected as number
  // polled (the server tells nobody), with no give-up of its own: the test's timeout bounds it
  while ((await connected()) > 0) await nextTurn()
}

describe.each(fixtureNames())("the PostgreSQL schema of %s", (name) => {
  const directory = temporaryDirectory("kasko-upgrade-postgres-")
  const cleanUp: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const step of cleanUp) await step()
    directory.remove()
  })
  const recording = readRecording(join(FIXTURES, name, FIXTURE_FILES.postgresAnswers))
  const environmentOf = (url: string) => ({
    KASKO_DATA_DIR: directory.newFile("data"),
    KASKO_DATABASE_URL: url,
    KASKO_DATABASE_SCHEMA: FIXTURE_SCHEMA
  })

  it("opens under this kasko, migrates to its schema, and answers every read as that release did", async () => {
    const { url, client } = await restoredFixture(name, cleanUp)
    const environment = environmentOf(url)
    const service = await serviceAt(READ_AT, environment, { dispatchWebhooks: false })
    try {
      expect(await appliedVersions(client)).toEqual(PostgresMigrations.MIGRATIONS.map((migration) => migration.version))
      const answers = await readAnswers({
        service,
        stores: PostgresStores.layer({ connectionString: url, schema: FIXTURE_SCHEMA, poolSize: 2 }),
        environment,
        keys: recording.keys,
        quotes: recording.quotes
      })
      expect(answers).toEqual(recording.answers)
      for (const key of recording.keys) {
        const prefix = key.subscription_key.split("_")[1]!
        expect([key.state, answers.key_checks[prefix]]).toEqual([key.state, key.state === "active" ? 200 : 401])
      }

      const { partner_id, idempotency_key, request: body, answer } = recording.idempotent_creation
      const repeated = await request(
        service,
        {
          token: await tokenFor(environment.KASKO_DATA_DIR, partner_id),
          key: recording.keys.find((key) => key.partner_id === partner_id && key.state === "active")!.subscription_key
        },
        "POST",
        "/insurance/car/quotes",
        { body, headers: { "idempotency-key": idempotency_key } }
      )
      expect(repeated).toEqual(answer)
    } finally {
      await service.stop()
    }
  })

  it("is refused by kasko serve, unchanged, once its schema is newer than this kasko's", async () => {
    const { url, client } = await restoredFixture(name, cleanUp)
    const environment = environmentOf(url)
    // this kasko's schema first (as the test above shows it opens), then one version past it
    await serviceAt(READ_AT, environment, { dispatchWebhooks: false }).then((service) => service.stop())
    await rateLimitPruningEnded(client)
    const latest = PostgresMigrations.MIGRATIONS.at(-1)!.version
    await client.query(
      `INSERT INTO ${FIXTURE_SCHEMA}.schema_migrations (version, name, checksum) VALUES ($1, 'from a newer kasko', 'unknown to this one')`,
      [latest + 1]
    )
    const before = await everything(client)

    const refused = await serveOnce(environment)

    expect(refused).toEqual({
      code: 1,
      served: false,
      stderr: `kasko serve: cannot start kasko on PostgreSQL schema ${FIXTURE_SCHEMA}: the database has schema version ${latest + 1}, newer than this kasko knows (up to ${latest}); upgrade kasko instead of opening it with an older one\n`
    })
    expect(await everything(client)).toEqual(before)
    const guide = refusalWords(readFileSync(OPERATIONS_GUIDE, "utf8"))
    expect(guide.includes(refusalWords(refused.stderr.trimEnd())), "the operations guide quotes the refusal").toBe(true)
  })
})
