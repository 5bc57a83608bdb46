/**
 * Upgrades keep data (issue 45), on SQLite: the `kasko.db` each fixture's release wrote in its data directory
 * opens under this kasko, is migrated to this kasko's schema, and answers every read — quotes, partners, keys,
 * webhook subscriptions and deliveries — as it answered that release (UpgradeFixture.ts). And the other way
 * round: once its schema is newer than this kasko's, `kasko serve` refuses it with the words the operations guide
 * quotes, and the file is not changed by a byte. (adapters/sqlite/test/SqliteFile.test.ts holds the store to the
 * same refusal, and to migrating an older schema's quotes.)
 */
import { SqliteMigrations, SqliteStores } from "@kasko/sqlite"
import Database from "better-sqlite3"
import { createHash } from "node:crypto"
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import {
  FIXTURE_FILES,
  FIXTURES,
  fixtureNames,
  READ_AT,
  readAnswers,
  readRecording,
  request,
  serviceAt,
  tokenFor
} from "./UpgradeFixture.js"
import { OPERATIONS_GUIDE, refusalWords, serveOnce } from "./Refusal.js"

const appliedVersions = (file: string): Array<number> => {
  const database = new Database(file, { readonly: true })
  try {
    return database.prepare<[], number>("SELECT version FROM schema_migrations ORDER BY version").pluck().all()
  } finally {
    database.close()
  }
}

/** Every file of the database (the file, and its -wal or -shm if any), by name, as the SHA-256 of its bytes. */
const databaseFiles = (dataDirectory: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dataDirectory)
      .filter((file) => file.startsWith("kasko.db"))
      .map((file) => [
        file,
        createHash("sha256")
          .update(readFileSync(join(dataDirectory, file)))
          .digest("hex")
      ])
  )

describe.each(fixtureNames())("the SQLite data directory of %s", (name) => {
  const directory = temporaryDirectory("kasko-upgrade-")
  afterAll(() => directory.remove())
  const recording = readRecording(join(FIXTURES, name, FIXTURE_FILES.sqliteAnswers))

  /** A data directory holding a fresh copy of the fixture's database. */
  const copyOfFixture = () => {
    const dataDirectory = directory.newFile("data")
    mkdirSync(dataDirectory)
    writeFileSync(
      join(dataDirectory, "kasko.db"),
      gunzipSync(readFileSync(join(FIXTURES, name, FIXTURE_FILES.sqliteDatabase)))
    )
    return { dataDirectory, database: join(dataDirectory, "kasko.db"), environment: { KASKO_DATA_DIR: dataDirectory } }
  }

  it("opens under this kasko, migrates to its schema, and answers every read as that release did", async () => {
    const { database, environment } = copyOfFixture()
    const service = await serviceAt(READ_AT, environment, { dispatchWebhooks: false })
    try {
      expect(appliedVersions(database)).toEqual(SqliteMigrations.MIGRATIONS.map((migration) => migration.version))
      const answers = await readAnswers({
        service,
        stores: SqliteStores.layer({ filename: database }),
        environment,
        keys: recording.keys,
        quotes: recording.quotes
      })
      expect(answers).toEqual(recording.answers)
      // what that comes to for the keys: each active one still lets its partner in, the revoked one and the
      // suspended partner's do not
      for (const key of recording.keys) {
        const prefix = key.subscription_key.split("_")[1]!
        expect([key.state, answers.key_checks[prefix]]).toEqual([key.state, key.state === "active" ? 200 : 401])
      }

      // the Idempotency-Key still names its quote: the request repeated answers it, and makes no other
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
    const { dataDirectory, database, environment } = copyOfFixture()
    // this kasko's schema first (as the test above shows it opens), then one version past it
    await serviceAt(READ_AT, environment, { dispatchWebhooks: false }).then((service) => service.stop())
    const latest = SqliteMigrations.MIGRATIONS.at(-1)!.version
    const newer = new Database(database)
    newer
      .prepare("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)")
      .run(latest + 1, "from a newer kasko", "unknown to this one", new Date(READ_AT).toISOString())
    newer.close()
    const before = databaseFiles(dataDirectory)

    const refused = await serveOnce(environment)

    expect(refused).toEqual({
      code: 1,
      served: false,
      stderr: `kasko serve: cannot start kasko on ${database}: the database has schema version ${latest + 1}, newer than this kasko knows (up to ${latest}); upgrade kasko instead of opening it with an older one\n`
    })
    expect(databaseFiles(dataDirectory)).toEqual(before)
    const guide = refusalWords(readFileSync(OPERATIONS_GUIDE, "utf8"))
    expect(guide.includes(refusalWords(refused.stderr.trimEnd())), "the operations guide quotes the refusal").toBe(true)
  })
})
