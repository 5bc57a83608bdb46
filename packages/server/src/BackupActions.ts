/**
 * What `kasko backup` and `kasko restore` do, on the SQLite database of the
 * data directory (`@kasko/sqlite`'s `SqliteBackup` does the copying and
 * checking). With KASKO_DATABASE_URL set they refuse and name PostgreSQL's
 * own tools.
 */
import { type SqliteAccessRecords, SqliteBackup } from "@kasko/sqlite"
import { Cause, Effect, Exit, Option } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { configuration } from "./AdminActions.js"
import { type CommandResult, done, json } from "./CommandResult.js"
import { DEFAULT_DATA_DIRECTORY, type ServiceConfig } from "./ServiceConfig.js"
import { databaseFile } from "./Stores.js"

type Arguments = Readonly<Record<string, unknown>>

const wantsJson = (argv: Arguments) => argv["json"] === true

/** The refusal as a sentence, with what to do about it. */
const messageOfRefusal = (refusal: SqliteBackup.BackupRefusal): string => {
  switch (refusal._tag) {
    case "BackupTargetExists":
      return `${refusal.file} exists already; --force replaces it`
    case "DatabaseMissing":
      return `there is no database at ${refusal.file}: nothing to back up (is KASKO_DATA_DIR the service's?)`
    case "DatabaseInUse":
      return `${refusal.file} is in use by a running service: stop the service, then restore`
    case "ReplacedDatabaseUnreadable":
      return `${refusal.message}; a restore keeps the revocations of the database it replaces, and cannot read these. Move it aside and restore again, then revoke again each key revoked (and suspend each partner suspended) since the backup was taken`
    case "BackupUnusable":
    case "BackupFailed":
      return refusal.message
  }
}

/** Runs a backup program; a refusal becomes an Error with a one-line sentence to print. */
const run = async <A>(program: Effect.Effect<A, SqliteBackup.BackupRefusal>): Promise<A> => {
  const exit = await Effect.runPromiseExit(program)
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.findErrorOption(exit.cause)
  throw new Error(Option.isSome(failure) ? messageOfRefusal(failure.value) : Cause.pretty(exit.cause))
}

/** The configuration, refused when the data is in PostgreSQL: kasko copies only its own SQLite file. */
const sqliteConfiguration = (instead: string): ServiceConfig => {
  const config = configuration()
  if (Option.isSome(config.databaseUrl))
    throw new Error(`KASKO_DATABASE_URL is set: the data is in PostgreSQL, not in a SQLite file; ${instead}`)
  return config
}

const view = (checked: SqliteBackup.CheckedDatabase) => ({
  file: checked.file,
  bytes: checked.bytes,
  quotes: checked.quotes,
  schema_version: checked.schemaVersion,
  integrity_check: "ok"
})

export const takeBackup = async (argv: Arguments): Promise<CommandResult> => {
  const config = sqliteConfiguration(
    "back it up with pg_dump (or pg_basebackup with WAL archiving for point-in-time recovery)"
  )
  const taken = await run(
    SqliteBackup.takeBackup({
      database: databaseFile(config),
      destination: argv["out"] as string,
      replace: argv["force"] === true
    })
  )
  return done(
    wantsJson(argv)
      ? json(view(taken))
      : `ok: ${taken.file}, ${taken.bytes} bytes, ${taken.quotes} quote${taken.quotes === 1 ? "" : "s"}\n`
  )
}

/** A path as a shell word: as it is when that is safe, in single quotes otherwise. */
const shellWord = (text: string) => (/^[\w./:@%+,=-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`)

const serveCommandOf = (config: ServiceConfig) =>
  config.dataDirectory === DEFAULT_DATA_DIRECTORY
    ? "kasko serve"
    : `KASKO_DATA_DIR=${shellWord(config.dataDirectory)} kasko serve`

// the backup holds the database only: tokens are signed by the key beside it, which a new data directory lacks
const signingKeyNoteOf = (config: ServiceConfig) =>
  Option.isNone(config.jwksUrl) && !existsSync(join(config.dataDirectory, "signing-key.json"))
    ? `no signing-key.json in ${config.dataDirectory}: put the one kept with the backup there, or the tokens issued before will not verify\n`
    : ""

// with no database of partners replaced (a new machine's) there was nothing to keep revoked: what the backup has active is active again
const NO_ACCESS_KEPT_NOTE =
  "no database with partners was replaced, so the partners and subscription keys are the backup's: revoke again any key revoked, and suspend again any partner suspended, since the backup was taken\n"

const keyList = (keys: ReadonlyArray<SqliteAccessRecords.KeyName>) =>
  keys.map((key) => `${key.partner_id} ${key.key_prefix}`).join(", ")

/** What the restore kept of the replaced database's access, one line each: what the backup alone would have undone. */
const accessKeptText = (kept: SqliteAccessRecords.AccessKept): string => {
  const lines = [
    kept.keys_kept_revoked.length > 0 && `kept revoked (revoked since the backup): ${keyList(kept.keys_kept_revoked)}`,
    kept.keys_kept_working.length > 0 && `kept working (issued since the backup): ${keyList(kept.keys_kept_working)}`,
    kept.partners_kept_suspended.length > 0 &&
      `kept suspended (suspended since the backup): ${kept.partners_kept_suspended.join(", ")}`,
    kept.partners_kept.length > 0 && `kept (added since the backup, with their keys): ${kept.partners_kept.join(", ")}`
  ].filter((line) => line !== false)
  return lines.length === 0
    ? "the replaced database's partners and subscription keys are kept: the same as the backup's\n"
    : `the replaced database's partners and subscription keys are kept:\n${lines.map((line) => `  ${line}\n`).join("")}`
}

export const restoreBackup = async (argv: Arguments): Promise<CommandResult> => {
  const config = sqliteConfiguration("restore a pg_dump backup with pg_restore")
  const restored = await run(
    SqliteBackup.restoreBackup({
      backup: argv["from"] as string,
      database: databaseFile(config),
      replace: argv["force"] === true
    })
  )
  const pending = restored.migrationPlan._tag === "Apply" ? restored.migrationPlan.pending : []
  const note = `${restored.replaced ? "the database that was there is replaced; " : ""}${
    pending.length > 0 ? `the service migrates it to schema version ${pending.at(-1)!.version} when it starts; ` : ""
  }start the service: ${serveCommandOf(config)}\n${signingKeyNoteOf(config)}${
    restored.accessKept === undefined ? NO_ACCESS_KEPT_NOTE : ""
  }`
  return wantsJson(argv)
    ? done(
        json({
          ...view(restored),
          backup: restored.backup,
          replaced: restored.replaced,
          access_kept: restored.accessKept ?? null
        }),
        note
      )
    : done(
        `restored: ${restored.file} from ${restored.backup}, ${restored.bytes} bytes, ${restored.quotes} quote${
          restored.quotes === 1 ? "" : "s"
        }\n${restored.accessKept === undefined ? "" : accessKeptText(restored.accessKept)}`,
        note
      )
}
