/** What only a file-backed store must show: durability settings, restart, migrations, clean close, driver faults. */
import { Examples, QuoteStore, QuotingService, IdGenerator, TariffBook } from "@kasko/core"
import { SqliteConnection, SqliteMigrations, SqliteOpenRefused, SqliteQuoteStore } from "@kasko/sqlite"
import Database from "better-sqlite3"
import { Effect, Exit, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { existsSync, statSync, writeFileSync } from "node:fs"
import { beforeAll, describe, expect, it } from "vitest"
import { makeFixtures } from "@kasko/store-contracts"
import { scratchFiles } from "./ScratchFiles.js"

const directory = scratchFiles("kasko-sqlite-file-")

let fixtures: ReadonlyArray<QuoteStore.StoredQuote> = []
beforeAll(async () => {
  fixtures = await makeFixtures()
})

const useStore = <A, E>(filename: string, program: (store: QuoteStore.QuoteStore["Service"]) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.flatMap(QuoteStore.QuoteStore, program).pipe(
      Effect.provide(SqliteQuoteStore.layer({ filename }))
    ) as Effect.Effect<A, unknown>
  )

const openExit = (filename: string) =>
  Effect.runPromiseExit(
    Effect.flatMap(QuoteStore.QuoteStore, () => Effect.void).pipe(Effect.provide(SqliteQuoteStore.layer({ filename })))
  )

const failureOf = (exit: Exit.Exit<unknown, unknown>) => Option.getOrUndefined(Exit.findErrorOption(exit))

describe("the SQLite file", () => {
  it.each(["FULL", "NORMAL"] as const)("runs with WAL and synchronous=%s, read back after a write", (synchronous) => {
    const database = SqliteConnection.openConnection({ filename: directory.newFile("pragmas.db"), synchronous })
    try {
      expect(database.pragma("journal_mode", { simple: true })).toBe("wal")
      database.prepare("INSERT INTO store_info (key, value) VALUES ('probe', 'x')").run()
      expect(database.pragma("synchronous", { simple: true })).toBe(synchronous === "FULL" ? 2 : 1)
      expect(database.pragma("foreign_keys", { simple: true })).toBe(1)
      expect(database.pragma("busy_timeout", { simple: true })).toBe(5000)
    } finally {
      SqliteConnection.closeConnection(database)
    }
  })

  it("refuses a synchronous level other than the one configured", () => {
    expect(SqliteConnection.synchronousRefusal(2, "FULL")).toBeUndefined()
    expect(SqliteConnection.synchronousRefusal(1, "FULL")).toMatch(/synchronous is 1 after a write, not FULL/)
    expect(SqliteConnection.synchronousRefusal(2, "NORMAL")).toMatch(/not NORMAL/)
  })

  it("serves quotes created and activated before a restart in the same form", async () => {
    const filename = directory.newFile("restart.db")
    const engine = () =>
      Layer.mergeAll(SqliteQuoteStore.layer({ filename }), IdGenerator.layerSequential, TariffBook.shipped)
    const at = <A, E>(
      millis: number,
      program: Effect.Effect<A, E, QuoteStore.QuoteStore | IdGenerator.IdGenerator | TariffBook.TariffBook>
    ) =>
      Effect.runPromise(
        Effect.andThen(TestClock.setTime(millis), program).pipe(
          Effect.provide(engine()),
          Effect.provide(TestClock.layer())
        ) as Effect.Effect<A, unknown>
      )
    const now = Date.parse("2026-03-02T09:00:00.000Z")
    const before = await at(
      now,
      Effect.gen(function* () {
        const awaiting = yield* QuotingService.createQuote("partner-a", Examples.quoteRequest())
        const activated = yield* QuotingService.createQuote(
          "partner-a",
          Examples.quoteRequest(Examples.standardParameters({ policy_holder: "organization" }))
        )
        yield* QuotingService.activateQuote("partner-a", activated.quote_id)
        return yield* Effect.forEach([awaiting.quote_id, activated.quote_id], (id) =>
          QuotingService.getQuote("partner-a", id)
        )
      })
    )
    // the layer closed the file; a new one opens it
    const after = await at(
      now + 60_000,
      Effect.forEach(before, (retrieved) => QuotingService.getQuote("partner-a", retrieved.quote.quote_id))
    )
    expect(after).toEqual(before)
    expect(after.map((retrieved) => retrieved.state)).toEqual(["await_activation", "activated"])
  })

  it("checkpoints the WAL into the file when the layer closes", async () => {
    const filename = directory.newFile("checkpoint.db")
    await useStore(filename, (store) => Effect.forEach(fixtures, (fixture) => store.insert(fixture)))
    expect(!existsSync(`${filename}-wal`) || statSync(`${filename}-wal`).size === 0).toBe(true)
    const database = new Database(filename, { readonly: true })
    expect((database.prepare("SELECT count(*) AS count FROM quotes").get() as { count: number }).count).toBe(
      fixtures.length
    )
    database.close()
  })
})

describe("group commit", () => {
  it("stores every quote of a concurrent group, and fails only the one that breaks a constraint", async () => {
    const filename = directory.newFile("group.db")
    const database = SqliteConnection.openConnection({ filename })
    const store = SqliteQuoteStore.makeQuoteStore(database)
    try {
      const [first, second, third] = fixtures as [
        QuoteStore.StoredQuote,
        QuoteStore.StoredQuote,
        QuoteStore.StoredQuote
      ]
      await Effect.runPromise(store.insert(first))
      // one turn of the event loop: the three are committed as one group, the duplicate of `first` breaks it
      const outcomes = await Promise.all(
        [second, first, third].map((quote) => Effect.runPromiseExit(store.insert(quote)))
      )
      expect(outcomes.map((exit) => exit._tag)).toEqual(["Success", "Failure", "Success"])
      for (const quote of [first, second, third]) {
        expect(await Effect.runPromise(store.find(quote.partner_id, quote.quote_id))).toEqual(Option.some(quote))
      }
    } finally {
      SqliteConnection.closeConnection(database)
    }
  })
})

describe("migrations", () => {
  const migrationRows = (filename: string) => {
    const database = new Database(filename, { readonly: true })
    try {
      return database.prepare("SELECT version, name FROM schema_migrations ORDER BY version").all()
    } finally {
      database.close()
    }
  }

  it("creates a new database at the latest schema version", async () => {
    const filename = directory.newFile("fresh.db")
    await useStore(filename, () => Effect.void)
    expect(migrationRows(filename)).toEqual(SqliteMigrations.MIGRATIONS.map(({ version, name }) => ({ version, name })))
  })

  it("upgrades a database created by an older migration set, keeping its quotes", async () => {
    const filename = directory.newFile("older.db")
    const older = new Database(filename)
    SqliteMigrations.migrate(older, SqliteMigrations.MIGRATIONS.slice(0, 1))
    older.close()
    expect(migrationRows(filename)).toHaveLength(1)
    await useStore(filename, (store) => store.insert(fixtures[0]!))
    expect(migrationRows(filename)).toHaveLength(SqliteMigrations.MIGRATIONS.length)
    const database = new Database(filename, { readonly: true })
    expect(
      database.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'quotes_by_created_at'").get()
    ).toBeDefined()
    database.close()
    expect(await useStore(filename, (store) => store.find(fixtures[0]!.partner_id, fixtures[0]!.quote_id))).toEqual(
      Option.some(fixtures[0])
    )
  })

  it("refuses a database from a newer kasko, and leaves it untouched", async () => {
    const filename = directory.newFile("newer.db")
    await useStore(filename, (store) => store.insert(fixtures[0]!))
    const database = new Database(filename)
    database
      .prepare(
        "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (99, 'future', 'x', 'later')"
      )
      .run()
    database.close()
    const exit = await openExit(filename)
    expect(failureOf(exit)).toBeInstanceOf(SqliteOpenRefused)
    const latest = SqliteMigrations.MIGRATIONS.at(-1)!.version
    expect((failureOf(exit) as SqliteOpenRefused).reason).toContain(
      `schema version 99, newer than this kasko knows (up to ${latest})`
    )
    expect(migrationRows(filename).map((row: any) => row.version)).toEqual([
      ...SqliteMigrations.MIGRATIONS.map((migration) => migration.version),
      99
    ])
  })

  it("refuses a database whose applied migration was edited", async () => {
    const filename = directory.newFile("edited.db")
    await useStore(filename, () => Effect.void)
    const database = new Database(filename)
    database.prepare("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1").run()
    database.close()
    expect((failureOf(await openExit(filename)) as SqliteOpenRefused).reason).toMatch(/must never be edited/)
  })
})

describe("driver faults become StorageUnavailable", () => {
  it("reports a file that is not a database, without throwing", async () => {
    const filename = directory.newFile("corrupt.db")
    writeFileSync(filename, "this is not an SQLite database, just some text that is long enough ".repeat(100))
    const error = failureOf(await openExit(filename))
    expect(error).toMatchObject({ _tag: "StorageUnavailable", retryable: false })
  })

  it("reports a database locked by another writer as retryable, after the busy timeout", async () => {
    const filename = directory.newFile("locked.db")
    const database = SqliteConnection.openConnection({ filename, busyTimeoutMillis: 50 })
    const blocker = new Database(filename)
    blocker.exec("BEGIN IMMEDIATE")
    try {
      const exit = await Effect.runPromiseExit(SqliteQuoteStore.makeQuoteStore(database).insert(fixtures[0]!))
      expect(failureOf(exit)).toMatchObject({
        _tag: "StorageUnavailable",
        retryable: true,
        reason: expect.stringContaining("SQLITE_BUSY")
      })
    } finally {
      blocker.exec("ROLLBACK")
      blocker.close()
    }
    // once the lock is gone the same store works again
    await Effect.runPromise(SqliteQuoteStore.makeQuoteStore(database).insert(fixtures[0]!))
    SqliteConnection.closeConnection(database)
  })

  it("reports a full database as retryable, and keeps working for what fits", async () => {
    const filename = directory.newFile("full.db")
    const database = SqliteConnection.openConnection({ filename })
    const pages = database.pragma("page_count", { simple: true }) as number
    database.pragma(`max_page_count = ${pages + 2}`)
    const store = SqliteQuoteStore.makeQuoteStore(database)
    const big = {
      ...fixtures[0]!,
      quote: { ...fixtures[0]!.quote, agent: { ...fixtures[0]!.quote.agent, user_id: "x".repeat(200_000) } }
    }
    const exit = await Effect.runPromiseExit(store.insert(big))
    expect(failureOf(exit)).toMatchObject({
      _tag: "StorageUnavailable",
      retryable: true,
      reason: expect.stringContaining("SQLITE_FULL")
    })
    expect(await Effect.runPromise(store.find(big.partner_id, big.quote_id))).toEqual(Option.none())
    database.pragma("max_page_count = 1073741823")
    await Effect.runPromise(store.insert(big))
    SqliteConnection.closeConnection(database)
  })
})
