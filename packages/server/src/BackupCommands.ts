/**
 * `kasko backup` and `kasko restore`: a consistent copy of the embedded SQLite
 * database while the service runs, and the reverse on a stopped service.
 * Definitions only; `BackupActions.ts` does the work and is imported when a
 * command runs.
 */
import type { Argv } from "yargs"
import type { KaskoCommand } from "./KaskoCommand.js"

const actions = () => import("./BackupActions.js")

const asJson = (argv: Argv) =>
  argv.option("json", { type: "boolean", default: false, describe: "print JSON instead of text" })

const POSTGRES_NOTE =
  "With KASKO_DATABASE_URL set the data is in PostgreSQL and these commands refuse: use pg_dump and pg_restore,\nor pg_basebackup with WAL archiving for point-in-time recovery."

export const BACKUP_COMMANDS: ReadonlyArray<KaskoCommand> = [
  {
    command: "backup",
    describe:
      "copy the SQLite database (KASKO_DATA_DIR/kasko.db) into a file while the service runs, and check the copy",
    options: (argv) =>
      asJson(
        argv
          .option("out", {
            type: "string",
            demandOption: true,
            requiresArg: true,
            describe: "the backup file to write (its folders are made if missing)"
          })
          .option("force", { type: "boolean", default: false, describe: "replace the file if it exists" })
      ).epilogue(
        `One consistent snapshot, taken without stopping the service; the copy is checked with PRAGMA integrity_check
before it is kept. It holds quotes, partners, hashed subscription keys and webhooks; keep a copy of
KASKO_DATA_DIR/signing-key.json too, which signs the tokens.

The reverse, on a stopped service: kasko restore --from FILE (kasko restore --help).
${POSTGRES_NOTE}

Example: kasko backup --out backups/kasko-$(date +%F).db`
      ),
    run: async (argv) => (await actions()).takeBackup(argv)
  },
  {
    command: "restore",
    describe: "put a backup in place of the SQLite database of a stopped service",
    options: (argv) =>
      asJson(
        argv
          .option("from", {
            type: "string",
            demandOption: true,
            requiresArg: true,
            describe: "the backup file, written by kasko backup"
          })
          .option("force", {
            type: "boolean",
            default: false,
            describe: "replace the data directory's database if there is one"
          })
      ).epilogue(
        `Stop the service first: a database a running service has open is refused. The backup must pass PRAGMA
integrity_check, be a kasko database and have a schema this kasko knows (the service migrates an older one
when it starts). It is copied beside KASKO_DATA_DIR/kasko.db, synced and renamed into place; the replaced
database's -wal and -shm files are removed. Then start the service.

What comes back is the backup's: quotes, webhook subscriptions (their secrets as they were) and deliveries.
What does not: the replaced database's partners and subscription keys are kept, so a key revoked (or a
partner suspended) since the backup stays so and a key issued since keeps working; the command lists them.
With no database of partners to replace, the backup's keys are all there is: revoke again what was revoked
since.
${POSTGRES_NOTE}

Example: KASKO_DATA_DIR=/var/lib/kasko kasko restore --from backups/kasko-2026-03-02.db --force`
      ),
    run: async (argv) => (await actions()).restoreBackup(argv)
  }
]
