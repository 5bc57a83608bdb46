/**
 * SQLite's schema migrations, planned by the core's one migrator
 * (`SchemaMigrations`: what to apply, or why to refuse a newer or edited
 * schema) and applied here, each in its own IMMEDIATE transaction.
 * @module
 */
import { SchemaMigrations } from "@kasko/sql"
import type Database from "better-sqlite3"
import { createHash } from "node:crypto"

type Migration = SchemaMigrations.Migration

/** Every version of kasko's SQLite schema, oldest first: applied in order, each once, never edited once released. */
export const MIGRATIONS: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: "quotes",
    sql: `
      CREATE TABLE quotes (
        quote_id TEXT PRIMARY KEY,
        partner_id TEXT NOT NULL,
        quote_number TEXT NOT NULL UNIQUE,
        policy_number TEXT NOT NULL,
        product_name TEXT NOT NULL,
        tariff_version TEXT NOT NULL,
        price_amount INTEGER NOT NULL,
        payments_per_year INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        activated_at INTEGER,
        quote_json TEXT NOT NULL,
        worksheet_json TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX quotes_by_partner_and_id ON quotes (partner_id, quote_id);
      CREATE TABLE store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
    `
  },
  {
    version: 2,
    name: "quotes by creation time, for the expiry purge",
    sql: `CREATE INDEX quotes_by_created_at ON quotes (created_at);`
  },
  {
    version: 3,
    name: "partners and their subscription keys",
    sql: `
      CREATE TABLE partners (
        partner_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        cvr_number TEXT,
        status TEXT NOT NULL CHECK (status IN ('active', 'suspended')),
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE subscription_keys (
        key_prefix TEXT PRIMARY KEY,
        partner_id TEXT NOT NULL REFERENCES partners (partner_id),
        key_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      ) STRICT;
      CREATE INDEX subscription_keys_by_partner ON subscription_keys (partner_id);
    `
  },
  {
    version: 4,
    name: "idempotency keys of quote creations",
    sql: `
      CREATE TABLE idempotency_keys (
        partner_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        quote_id TEXT NOT NULL REFERENCES quotes (quote_id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (partner_id, idempotency_key)
      ) STRICT;
      CREATE INDEX idempotency_keys_by_quote ON idempotency_keys (quote_id);
    `
  },
  {
    version: 5,
    name: "the outbox of quote events, written with the changes they report",
    sql: `
      CREATE TABLE quote_events (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        occurred_at INTEGER NOT NULL,
        partner_id TEXT NOT NULL,
        quote_id TEXT NOT NULL,
        payload TEXT NOT NULL
      ) STRICT;
      CREATE INDEX quote_events_by_quote ON quote_events (quote_id);
      CREATE INDEX quote_events_by_occurred_at ON quote_events (occurred_at);
    `
  },
  {
    version: 6,
    name: "webhook subscriptions and the deliveries of quote events to them",
    sql: `
      ALTER TABLE quote_events ADD COLUMN fanned_out_at INTEGER;
      CREATE INDEX quote_events_not_fanned_out ON quote_events (position) WHERE fanned_out_at IS NULL;
      CREATE TABLE webhook_subscriptions (
        subscription_id TEXT PRIMARY KEY,
        partner_id TEXT NOT NULL,
        url TEXT NOT NULL,
        event_types TEXT NOT NULL,
        secret TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX webhook_subscriptions_by_partner ON webhook_subscriptions (partner_id, created_at);
      CREATE TABLE webhook_deliveries (
        delivery_id TEXT PRIMARY KEY,
        subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions (subscription_id) ON DELETE CASCADE,
        event_position INTEGER NOT NULL,
        event_id TEXT NOT NULL,
        partner_id TEXT NOT NULL,
        quote_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dead_lettered')),
        attempts INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        first_attempt_at INTEGER,
        last_attempt_at INTEGER,
        next_attempt_at INTEGER,
        last_error TEXT,
        lease_owner TEXT,
        lease_until INTEGER
      ) STRICT;
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (subscription_id, quote_id, event_position)
        WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_by_partner ON webhook_deliveries (partner_id, created_at);
      CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
    `
  },
  {
    version: 7,
    name: "webhook work in bounded, fair steps: due deliveries and new events by partner, deliveries by subscription",
    sql: `
      DROP INDEX webhook_deliveries_due;
      CREATE INDEX webhook_deliveries_due_by_partner ON webhook_deliveries (partner_id, next_attempt_at, event_position)
        WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_pending_by_event ON webhook_deliveries (event_position) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries (subscription_id);
      CREATE INDEX quote_events_not_fanned_out_by_partner ON quote_events (partner_id, position)
        WHERE fanned_out_at IS NULL;
    `
  },
  {
    version: 8,
    name: "fan-out by a cursor per subscribed partner, not a mark on every event",
    // Marking each event rewrote its whole row, payload and all (~11 µs of ~40 µs an event cost to fan out).
    // A partner's cursor is the position of its last event fanned out; one subscribed before has the position
    // before its oldest event not yet marked, or the last position if none. quote_events.fanned_out_at stays,
    // unwritten: dropping the column would rewrite every event row while the service starts.
    sql: `
      CREATE TABLE webhook_fan_out (
        partner_id TEXT PRIMARY KEY,
        fanned_out_to INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      INSERT INTO webhook_fan_out (partner_id, fanned_out_to)
      SELECT s.partner_id,
             COALESCE((SELECT MIN(position) - 1 FROM quote_events e
                       WHERE e.partner_id = s.partner_id AND e.fanned_out_at IS NULL),
                      (SELECT COALESCE(MAX(position), 0) FROM quote_events))
      FROM (SELECT DISTINCT partner_id FROM webhook_subscriptions) s;
      DROP INDEX quote_events_not_fanned_out;
      DROP INDEX quote_events_not_fanned_out_by_partner;
      CREATE INDEX quote_events_by_partner ON quote_events (partner_id, position);
    `
  },
  {
    version: 9,
    name: "webhook subscriptions disabled by their endpoints (410 Gone, or failing for days), and since when they fail",
    sql: `
      ALTER TABLE webhook_subscriptions ADD COLUMN failing_since INTEGER;
      ALTER TABLE webhook_subscriptions ADD COLUMN disabled_at INTEGER;
      ALTER TABLE webhook_subscriptions ADD COLUMN disabled_reason TEXT;
    `
  },
  {
    version: 10,
    name: "each webhook delivery's attempts: when, the answer's status, why it failed",
    sql: `
      ALTER TABLE webhook_deliveries ADD COLUMN attempt_log TEXT;
    `
  },
  {
    version: 11,
    name: "a partner's dead letters by time: recovery since a time reads only them",
    sql: `
      CREATE INDEX webhook_deliveries_dead_by_partner ON webhook_deliveries (partner_id, created_at, event_position)
        WHERE state = 'dead_lettered';
    `
  },
  {
    version: 12,
    name: "the products a partner may sell (a JSON array; null: every product)",
    sql: `
      ALTER TABLE partners ADD COLUMN products TEXT;
    `
  },
  {
    version: 13,
    name: "sandbox keys: where a subscription key works",
    sql: `
      ALTER TABLE subscription_keys ADD COLUMN environment TEXT NOT NULL DEFAULT 'production'
        CHECK (environment IN ('production', 'sandbox'));
    `
  }
]

const sha256 = (sql: string): string => createHash("sha256").update(sql).digest("hex")

const appliedMigrations = (database: Database.Database): Array<SchemaMigrations.AppliedMigration> =>
  database
    .prepare("SELECT version, checksum FROM schema_migrations ORDER BY version")
    .all() as Array<SchemaMigrations.AppliedMigration>

/** Brings the schema up to date, each migration in its own IMMEDIATE transaction. Throws MigrationRefused when it must refuse. */
export const migrate = (database: Database.Database, known: ReadonlyArray<Migration> = MIGRATIONS): void => {
  database.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL
  ) STRICT`)
  const applied = appliedMigrations(database)
  const record = database.prepare(
    "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)"
  )
  for (const migration of SchemaMigrations.pendingMigrationsOrThrow(applied, known, sha256)) {
    database
      .transaction(() => {
        database.exec(migration.sql)
        record.run(migration.version, migration.name, migration.checksum, new Date().toISOString())
      })
      .immediate()
  }
}

/** The highest applied schema version. */
export const schemaVersion = (database: Database.Database): number =>
  (database.prepare("SELECT max(version) AS version FROM schema_migrations").get() as { version: number | null })
    .version ?? 0

/**
 * What `migrate` would do to a database that has its `schema_migrations`
 * table, without touching it (read-only connections too): before a backup
 * is put in place, to refuse one this kasko could not open.
 */
export const planOf = (
  database: Database.Database,
  known: ReadonlyArray<Migration> = MIGRATIONS
): SchemaMigrations.MigrationPlan => SchemaMigrations.planMigrations(appliedMigrations(database), known, sha256)
