/**
 * Opening and closing the database file: WAL, the chosen synchronous level
 * verified after a write, busy timeout, foreign keys, migrations; closing
 * checkpoints the WAL into the main file.
 * @module
 */
import Database from "better-sqlite3"
import { Effect, type Scope } from "effect"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { migrate } from "./SqliteMigrations.js"
import { SqliteOpenRefused } from "./SqliteErrors.js"
import { StorageUnavailable } from "@kasko/core"
import { SchemaMigrations } from "@kasko/sql"

/** The database file the SQLite stores open, how safely they commit, how long a write waits for the lock. */
export interface SqliteOptions {
  /** Path of the database file; created (with its directory) when missing. */
  readonly filename: string
  /**
   * `FULL` (default): a quote acknowledged is on disk even if the machine loses
   * power. `NORMAL`: faster commits, still safe when the process crashes, but
   * the last transactions may be lost if the machine itself goes down.
   */
  readonly synchronous?: "FULL" | "NORMAL"
  /** How long a write waits for another connection's lock before failing as busy. Default 5 000 ms. */
  readonly busyTimeoutMillis?: number
  /** Told how many quotes each group commit stored (for metrics). */
  readonly onGroupCommit?: (quotes: number) => void
}

const SYNCHRONOUS_LEVEL = { NORMAL: 1, FULL: 2 } as const

/** Why the synchronous level read back after a write is not acceptable, or undefined when it is the one asked for. */
export const synchronousRefusal = (level: unknown, wanted: "FULL" | "NORMAL"): string | undefined =>
  level === SYNCHRONOUS_LEVEL[wanted]
    ? undefined
    : `synchronous is ${String(level)} after a write, not ${wanted} (${SYNCHRONOUS_LEVEL[wanted]}); refusing to run with other durability than configured`

const readPragma = (database: Database.Database, name: string): unknown => database.pragma(name, { simple: true })

/**
 * Opens a connection and makes it safe to use. better-sqlite3 is compiled with
 * WAL defaulting to synchronous=NORMAL, and the level can fall back after the
 * first write, so it is set after enabling WAL and read back after a write.
 */
export const openConnection = (options: SqliteOptions): Database.Database => {
  const synchronous = options.synchronous ?? "FULL"
  if (options.filename !== ":memory:") mkdirSync(dirname(options.filename), { recursive: true })
  const database = new Database(options.filename, { timeout: options.busyTimeoutMillis ?? 5_000 })
  try {
    const journalMode = database.pragma("journal_mode = WAL", { simple: true })
    if (journalMode !== "wal")
      throw new SqliteOpenRefused({ reason: `could not enable WAL (journal_mode is ${String(journalMode)})` })
    database.pragma(`synchronous = ${synchronous}`)
    database.pragma("foreign_keys = ON")
    migrate(database)
    database
      .prepare(
        "INSERT INTO store_info (key, value) VALUES ('last_opened_at', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
      )
      .run(new Date().toISOString())
    const refusal = synchronousRefusal(readPragma(database, "synchronous"), synchronous)
    if (refusal !== undefined) throw new SqliteOpenRefused({ reason: refusal })
    if (readPragma(database, "foreign_keys") !== 1)
      throw new SqliteOpenRefused({ reason: "foreign keys could not be enabled" })
    return database
  } catch (error) {
    database.close()
    if (error instanceof SchemaMigrations.MigrationRefused) throw new SqliteOpenRefused({ reason: error.message })
    throw error
  }
}

/** Checkpoints the WAL into the database file and closes the connection. */
export const closeConnection = (database: Database.Database): void => {
  if (!database.open) return
  try {
    database.pragma("wal_checkpoint(TRUNCATE)")
  } catch {
    // another connection holds the WAL: nothing is lost, the next open replays it
  }
  database.close()
}

/** An open connection for the lifetime of a scope. */
export const scopedConnection = (
  options: SqliteOptions
): Effect.Effect<Database.Database, StorageUnavailable | SqliteOpenRefused, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.try({
      try: () => openConnection(options),
      catch: (error) =>
        error instanceof SqliteOpenRefused
          ? error
          : new StorageUnavailable({ reason: `opening ${options.filename}: ${String(error)}`, retryable: false })
    }),
    (database) => Effect.sync(() => closeConnection(database)).pipe(Effect.orDie)
  )
