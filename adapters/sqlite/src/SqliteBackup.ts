/**
 * Backups of the SQLite database file: a consistent copy taken while the
 * service runs (SQLite's online backup API), checked before it is kept; and
 * the reverse, a checked backup put in place of a stopped service's database.
 * A backup is one self-contained file (rollback journal, nothing beside it)
 * that any SQLite opens as it is. Files are written next to their final
 * name, synced, and renamed into place, so a crash leaves the old file or the
 * new one, never half of one.
 * @module
 */
import type { SchemaMigrations } from "@kasko/sql"
import Database from "better-sqlite3"
import { Data, Effect, type Scope } from "effect"
import { randomBytes } from "node:crypto"
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync } from "node:fs"
import { basename, dirname, join, resolve } from "node:path"
import { type AccessKept, type AccessRecords, keepAccessRecords, readAccessRecords } from "./SqliteAccessRecords.js"
import { planOf, schemaVersion } from "./SqliteMigrations.js"

/** The file a backup or a restore would write exists already, and replacing it was not asked for. */
export class BackupTargetExists extends Data.TaggedError("BackupTargetExists")<{ readonly file: string }> {
  override get message() {
    return `${this.file} exists already`
  }
}

/** There is no database file to back up. */
export class DatabaseMissing extends Data.TaggedError("DatabaseMissing")<{ readonly file: string }> {
  override get message() {
    return `there is no database at ${this.file}`
  }
}

/** A running service (another connection) has the database open, so it cannot be replaced. */
export class DatabaseInUse extends Data.TaggedError("DatabaseInUse")<{ readonly file: string }> {
  override get message() {
    return `${this.file} is in use by a running service`
  }
}

/** A file that cannot serve as a kasko database: not SQLite, not kasko's, damaged, or from a newer kasko. */
export class BackupUnusable extends Data.TaggedError("BackupUnusable")<{
  readonly file: string
  readonly reason: string
}> {
  override get message() {
    return `${this.file} ${this.reason}`
  }
}

/**
 * The database a restore would replace cannot be read for its partners and subscription keys (it is damaged, or
 * not SQLite), so the restore could not keep its revocations.
 */
export class ReplacedDatabaseUnreadable extends Data.TaggedError("ReplacedDatabaseUnreadable")<{
  readonly file: string
  readonly reason: string
}> {
  override get message() {
    return `${this.file}'s partners and subscription keys cannot be read: ${this.reason}`
  }
}

/** Copying failed: the disk is full, a directory is missing or not writable… */
export class BackupFailed extends Data.TaggedError("BackupFailed")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

/** Why a backup or a restore (`kasko backup`, `kasko restore`) did nothing: one of the tagged errors above. */
export type BackupRefusal =
  | BackupTargetExists
  | DatabaseMissing
  | DatabaseInUse
  | BackupUnusable
  | ReplacedDatabaseUnreadable
  | BackupFailed

/** A kasko database file as checked: `PRAGMA integrity_check` answered ok. */
export interface CheckedDatabase {
  readonly file: string
  readonly bytes: number
  readonly schemaVersion: number
  readonly quotes: number
  /** Whether this kasko can open it, and what it would migrate. */
  readonly migrationPlan: SchemaMigrations.MigrationPlan
}

/** A backup put in place of a service's database. */
export interface RestoredDatabase extends CheckedDatabase {
  readonly backup: string
  /** Whether a database was there before and is now replaced. */
  readonly replaced: boolean
  /**
   * What of the replaced database's partners and keys differs from the backup's and was kept; none when no
   * database with partners was replaced (a new machine's: the backup's keys are all there is).
   */
  readonly accessKept: AccessKept | undefined
}

// sqlite3_backup_step copies the pages of one step inside one read transaction, and a write by another
// connection between two steps restarts the copy from the first page. Under steady writes a copy in small
// steps might never finish, so everything goes in one step: a snapshot of one instant, which in WAL mode
// does not hold up the service's writes (readers never block the writer; the WAL only grows meanwhile).
const ALL_REMAINING_PAGES = 0x7fffffff

const KASKO_TABLES = ["schema_migrations", "store_info", "quotes"] as const

const SIDECAR_SUFFIXES = ["-wal", "-shm", "-journal"] as const

const codeOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : "UNKNOWN"

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** A connection for the lifetime of a scope. */
const connection = <E>(
  file: string,
  options: Database.Options,
  refusal: (error: unknown) => E
): Effect.Effect<Database.Database, E, Scope.Scope> =>
  Effect.acquireRelease(Effect.try({ try: () => new Database(file, options), catch: refusal }), (database) =>
    Effect.sync(() => database.close())
  )

/** A file name next to `target` for writing it, removed at the end of the scope unless it was renamed into place. */
const temporaryFileBeside = (target: string): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.partial`)),
    (temporary) =>
      Effect.sync(() => {
        rmSync(temporary, { force: true })
        rmSync(`${temporary}-journal`, { force: true })
      })
  )

const fsyncPath = (path: string): void => {
  const descriptor = openSync(path, "r")
  try {
    fsyncSync(descriptor)
  } finally {
    closeSync(descriptor)
  }
}

/**
 * Copies an open database into `temporary` with SQLite's backup API (so what is
 * copied is the database as SQLite reads it, its WAL included), turns the copy
 * into a self-contained rollback-journal file, and syncs it to disk.
 */
const copyDatabase = (source: Database.Database, temporary: string): Effect.Effect<void, BackupFailed> =>
  Effect.tryPromise({
    try: async () => {
      await source.backup(temporary, { progress: () => ALL_REMAINING_PAGES })
      const copy = new Database(temporary, { fileMustExist: true })
      try {
        copy.pragma("journal_mode = DELETE")
      } finally {
        copy.close()
      }
      fsyncPath(temporary)
    },
    catch: (error) => new BackupFailed({ reason: `copying into ${dirname(temporary)}: ${reasonOf(error)}` })
  })

/**
 * Renames a synced file over `target`. A -wal, -shm or -journal file left
 * beside the old file would be replayed into the new one, so they go first: a
 * crash in between leaves the old file without them, never the new one with them.
 */
const putInPlace = (temporary: string, target: string): Effect.Effect<void, BackupFailed> =>
  Effect.try({
    try: () => {
      for (const suffix of SIDECAR_SUFFIXES) rmSync(`${target}${suffix}`, { force: true })
      renameSync(temporary, target)
      // the rename itself is durable only once the directory is synced
      fsyncPath(dirname(target))
    },
    catch: (error) => new BackupFailed({ reason: `putting ${target} in place: ${reasonOf(error)}` })
  })

/** What `PRAGMA integrity_check` finds wrong, its first few problems; none when it answers ok. */
const integrityProblems = (database: Database.Database): ReadonlyArray<string> =>
  (database.pragma("integrity_check(3)") as Array<{ integrity_check: string }>)
    .flatMap((row) => row.integrity_check.split("\n"))
    .filter((line) => line !== "ok" && !line.startsWith("*** in database"))
    .slice(0, 3)

/**
 * Checks that `file` is a kasko database SQLite finds intact: `PRAGMA
 * integrity_check` answers ok, it has kasko's tables, and what this kasko
 * would make of its schema. Opens it read-only.
 */
export const checkDatabase = (file: string): Effect.Effect<CheckedDatabase, BackupUnusable> =>
  Effect.scoped(
    Effect.gen(function* () {
      const path = resolve(file)
      const unusable = (reason: string) => new BackupUnusable({ file: path, reason })
      const read = <A>(call: () => A, problem = "cannot be read") =>
        Effect.try({
          try: call,
          catch: (error) => {
            const code = codeOf(error)
            if (code === "SQLITE_NOTADB") return unusable("is not an SQLite database")
            if (code.startsWith("SQLITE_CORRUPT")) return unusable(`is damaged: ${reasonOf(error)}`)
            return unusable(`${problem}: ${reasonOf(error)}`)
          }
        })
      if (!existsSync(path)) return yield* unusable("does not exist")
      const database = yield* connection(path, { readonly: true, fileMustExist: true }, (error) =>
        unusable(`cannot be opened: ${reasonOf(error)}`)
      )
      const problems = yield* read(() => integrityProblems(database), "fails PRAGMA integrity_check")
      if (problems.length > 0) return yield* unusable(`fails PRAGMA integrity_check: ${problems.join("; ")}`)
      const tables = yield* read(
        () => new Set(database.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all())
      )
      const missing = KASKO_TABLES.filter((table) => !tables.has(table))
      if (missing.length > 0)
        return yield* unusable(
          `is not a kasko database (no ${missing.join(", ")} table${missing.length > 1 ? "s" : ""})`
        )
      return yield* read(
        (): CheckedDatabase => ({
          file: path,
          bytes: statSync(path).size,
          schemaVersion: schemaVersion(database),
          quotes: database.prepare<[], number>("SELECT count(*) FROM quotes").pluck().get() ?? 0,
          migrationPlan: planOf(database)
        })
      )
    })
  )

/**
 * Whether another connection — a running service — has the database open.
 * `BEGIN EXCLUSIVE` alone cannot tell: in WAL mode it takes only the write
 * lock, which an idle service does not hold. But a connection in WAL mode
 * keeps a shared lock on the database file for as long as it is open, so
 * asking for the file's exclusive lock (locking_mode=EXCLUSIVE, then a write
 * transaction) is refused as busy exactly while another connection has it
 * open, idle or writing. A crashed service holds nothing: its locks ended
 * with its process. A file SQLite cannot read as a database is in no one's use.
 */
export const databaseInUse = (file: string): Effect.Effect<boolean, BackupFailed> =>
  Effect.scoped(
    Effect.gen(function* () {
      const failed = (error: unknown) =>
        new BackupFailed({ reason: `cannot tell whether ${file} is in use: ${reasonOf(error)}` })
      const database = yield* connection(file, { fileMustExist: true, timeout: 250 }, failed)
      return yield* Effect.try({
        try: () => {
          database.pragma("locking_mode = EXCLUSIVE")
          database.exec("BEGIN EXCLUSIVE")
          database.exec("COMMIT")
          return false
        },
        catch: (error) => error
      }).pipe(
        Effect.catch((error) => {
          const code = codeOf(error)
          if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return Effect.succeed(true)
          if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) return Effect.succeed(false)
          return Effect.fail(failed(error))
        })
      )
    })
  )

/**
 * Takes a backup of `database` into `destination` while the service may be
 * running and writing: one consistent snapshot, checked (read-only,
 * `PRAGMA integrity_check`) before it is renamed to `destination`, whose
 * folders are made if missing. Refuses an existing `destination` unless
 * `replace`, and never writes over the database.
 */
export const takeBackup = (options: {
  readonly database: string
  readonly destination: string
  readonly replace: boolean
}): Effect.Effect<CheckedDatabase, BackupRefusal> =>
  Effect.scoped(
    Effect.gen(function* () {
      const database = resolve(options.database)
      const destination = resolve(options.destination)
      if ([database, ...SIDECAR_SUFFIXES.map((suffix) => `${database}${suffix}`)].includes(destination))
        return yield* new BackupFailed({ reason: `the backup cannot be written over the database it copies` })
      if (!existsSync(database)) return yield* new DatabaseMissing({ file: database })
      if (existsSync(destination) && !options.replace) return yield* new BackupTargetExists({ file: destination })
      // `--out backups/kasko-….db` on a first backup: the folder is made, as a restore makes the data directory
      yield* Effect.try({
        try: () => mkdirSync(dirname(destination), { recursive: true }),
        catch: (error) => new BackupFailed({ reason: `creating ${dirname(destination)}: ${reasonOf(error)}` })
      })
      // read-write though it only reads: with the service stopped, a read-only one would leave -wal and -shm behind
      const source = yield* connection(
        database,
        { fileMustExist: true, timeout: 5_000 },
        (error) => new BackupFailed({ reason: `opening ${database}: ${reasonOf(error)}` })
      )
      const temporary = yield* temporaryFileBeside(destination)
      yield* copyDatabase(source, temporary)
      const checked = yield* checkDatabase(temporary).pipe(
        Effect.mapError((unusable) => new BackupFailed({ reason: `the copy ${unusable.reason}` }))
      )
      yield* putInPlace(temporary, destination)
      return { ...checked, file: destination }
    })
  )

/** The partners and keys of the database a restore replaces, read through its write-ahead log. */
const accessRecordsOf = (database: string): Effect.Effect<AccessRecords, ReplacedDatabaseUnreadable> =>
  Effect.scoped(
    Effect.gen(function* () {
      const unreadable = (error: unknown) => new ReplacedDatabaseUnreadable({ file: database, reason: reasonOf(error) })
      // read-write, as a backup reads: what the service committed last may be only in the -wal file
      const connected = yield* connection(database, { fileMustExist: true, timeout: 5_000 }, unreadable)
      return yield* Effect.try({ try: () => readAccessRecords(connected), catch: unreadable })
    })
  )

/** Writes the replaced database's partners and keys into the copy, and syncs it again. */
const keepAccess = (temporary: string, kept: AccessRecords): Effect.Effect<AccessKept, BackupFailed> =>
  Effect.try({
    try: () => {
      const copy = new Database(temporary, { fileMustExist: true })
      try {
        return keepAccessRecords(copy, kept)
      } finally {
        copy.close()
        fsyncPath(temporary)
      }
    },
    catch: (error) => new BackupFailed({ reason: `keeping the replaced database's keys: ${reasonOf(error)}` })
  })

/**
 * Puts the backup `backup` in place as `database`, for a service that is not
 * running: the backup must pass `checkDatabase` and have a schema this kasko
 * can open; a database in use is refused, and an existing one replaced only
 * when `replace`. The replaced database's partners and subscription keys are
 * kept (SqliteAccessRecords: a key revoked since the backup stays revoked, one
 * issued since keeps working). The copy is checked again before it is renamed
 * into place, and the -wal and -shm files of the database it replaces are removed.
 */
export const restoreBackup = (options: {
  readonly backup: string
  readonly database: string
  readonly replace: boolean
}): Effect.Effect<RestoredDatabase, BackupRefusal> =>
  Effect.scoped(
    Effect.gen(function* () {
      const database = resolve(options.database)
      if (resolve(options.backup) === database)
        return yield* new BackupFailed({ reason: `${database} is the database itself, not a backup of it` })
      const backup = yield* checkDatabase(options.backup)
      if (backup.migrationPlan._tag === "Refuse")
        return yield* new BackupUnusable({
          file: backup.file,
          reason: `cannot be restored: ${backup.migrationPlan.reason}`
        })
      const exists = existsSync(database)
      if (exists && (yield* databaseInUse(database))) return yield* new DatabaseInUse({ file: database })
      if (exists && !options.replace) return yield* new BackupTargetExists({ file: database })
      const replacedAccess = exists ? yield* accessRecordsOf(database) : undefined
      yield* Effect.try({
        try: () => mkdirSync(dirname(database), { recursive: true }),
        catch: (error) => new BackupFailed({ reason: `creating ${dirname(database)}: ${reasonOf(error)}` })
      })
      const source = yield* connection(
        backup.file,
        { readonly: true, fileMustExist: true },
        (error) => new BackupFailed({ reason: `opening ${backup.file}: ${reasonOf(error)}` })
      )
      const temporary = yield* temporaryFileBeside(database)
      yield* copyDatabase(source, temporary)
      const accessKept =
        replacedAccess === undefined || replacedAccess.partners.length === 0
          ? undefined
          : yield* keepAccess(temporary, replacedAccess)
      const checked = yield* checkDatabase(temporary).pipe(
        Effect.mapError((unusable) => new BackupFailed({ reason: `the copy ${unusable.reason}` }))
      )
      yield* putInPlace(temporary, database)
      return { ...checked, file: database, backup: backup.file, replaced: exists, accessKept }
    })
  )
