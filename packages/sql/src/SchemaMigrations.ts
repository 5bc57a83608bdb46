/**
 * Versioned schema migrations, decided once for every SQL store: which
 * migrations to apply, or why the database must be refused untouched (a
 * schema from a newer kasko, or an applied migration whose SQL has since
 * changed — applied migrations are never edited, a new one is added). Each
 * store runs the plan in its own dialect and transactions and records each
 * migration with the checksum given here.
 * @module
 */

/** One version of a store's schema: its number, its name, and the SQL that makes it from the one before. */
export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
}

/** A row of the store's `schema_migrations` table. */
export interface AppliedMigration {
  readonly version: number
  readonly checksum: string
}

/** A migration the plan applies, with the checksum of its SQL the store records beside it. */
export interface PendingMigration extends Migration {
  readonly checksum: string
}

/** What a store does with its database: apply the pending migrations in order, or refuse it untouched, saying why. */
export type MigrationPlan =
  | { readonly _tag: "Apply"; readonly pending: ReadonlyArray<PendingMigration> }
  | { readonly _tag: "Refuse"; readonly reason: string }

/** Thrown by a store's migrator when the plan refuses; the store turns it into its own open error. */
export class MigrationRefused extends Error {}

/**
 * The plan for a database that has `applied`, given the migrations this kasko
 * knows (ascending versions). `checksumOf` hashes a migration's SQL (the
 * stores pass SHA-256, so this package stays free of Node's crypto).
 */
export const planMigrations = (
  applied: ReadonlyArray<AppliedMigration>,
  known: ReadonlyArray<Migration>,
  checksumOf: (sql: string) => string
): MigrationPlan => {
  const latestKnown = known.at(-1)?.version ?? 0
  for (const row of applied) {
    const migration = known.find((candidate) => candidate.version === row.version)
    if (migration === undefined) {
      return {
        _tag: "Refuse",
        reason: `the database has schema version ${row.version}, newer than this kasko knows (up to ${latestKnown}); upgrade kasko instead of opening it with an older one`
      }
    }
    if (checksumOf(migration.sql) !== row.checksum) {
      return {
        _tag: "Refuse",
        reason: `migration ${row.version} (${migration.name}) differs from the one applied to this database; applied migrations must never be edited`
      }
    }
  }
  const appliedVersions = new Set(applied.map((row) => row.version))
  const pending = known
    .filter((migration) => !appliedVersions.has(migration.version))
    .map((migration) => ({ ...migration, checksum: checksumOf(migration.sql) }))
  return { _tag: "Apply", pending }
}

/** The pending migrations, or MigrationRefused thrown with the reason. */
export const pendingMigrationsOrThrow = (
  applied: ReadonlyArray<AppliedMigration>,
  known: ReadonlyArray<Migration>,
  checksumOf: (sql: string) => string
): ReadonlyArray<PendingMigration> => {
  const plan = planMigrations(applied, known, checksumOf)
  if (plan._tag === "Refuse") throw new MigrationRefused(plan.reason)
  return plan.pending
}
