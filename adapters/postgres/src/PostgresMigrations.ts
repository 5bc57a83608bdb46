/**
 * PostgreSQL's schema migrations, planned by the core's one migrator
 * (`SchemaMigrations`: what to apply, or why to refuse a newer or edited
 * schema) and applied here under an advisory lock, so several instances
 * starting at once apply each exactly once.
 * @module
 */
import { SchemaMigrations } from "@kasko/sql"
import { createHash } from "node:crypto"
import type { PoolClient } from "pg"

type Migration = SchemaMigrations.Migration

/** Every version of kasko's PostgreSQL schema, oldest first: applied in order, each once, never edited once released. */
export const MIGRATIONS: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: "quotes, partners, subscription keys, idempotency keys",
    sql: `
      CREATE TABLE quotes (
        quote_id text PRIMARY KEY,
        partner_id text NOT NULL,
        quote_number text NOT NULL UNIQUE,
        policy_number text NOT NULL,
        product_name text NOT NULL,
        tariff_version text NOT NULL,
        price_amount integer NOT NULL,
        payments_per_year integer NOT NULL,
        created_at bigint NOT NULL,
        activated_at bigint,
        quote_json text NOT NULL,
        worksheet_json text NOT NULL
      );
      CREATE UNIQUE INDEX quotes_by_partner_and_id ON quotes (partner_id, quote_id);
      CREATE INDEX quotes_by_created_at ON quotes (created_at);
      CREATE TABLE idempotency_keys (
        partner_id text NOT NULL,
        idempotency_key text NOT NULL,
        fingerprint text NOT NULL,
        quote_id text NOT NULL REFERENCES quotes (quote_id) ON DELETE CASCADE,
        created_at bigint NOT NULL,
        PRIMARY KEY (partner_id, idempotency_key)
      );
      CREATE INDEX idempotency_keys_by_quote ON idempotency_keys (quote_id);
      CREATE TABLE partners (
        partner_id text PRIMARY KEY,
        name text NOT NULL,
        cvr_number text,
        status text NOT NULL CHECK (status IN ('active', 'suspended')),
        created_at bigint NOT NULL
      );
      CREATE TABLE subscription_keys (
        key_prefix text PRIMARY KEY,
        partner_id text NOT NULL REFERENCES partners (partner_id),
        key_hash text NOT NULL,
        created_at bigint NOT NULL,
        revoked_at bigint
      );
      CREATE INDEX subscription_keys_by_partner ON subscription_keys (partner_id);
    `
  },
  {
    version: 2,
    name: "store facts: the readiness write probe",
    sql: `CREATE TABLE store_info (key text PRIMARY KEY, value text NOT NULL);`
  },
  {
    version: 3,
    name: "the outbox of quote events, written with the changes they report",
    sql: `
      CREATE TABLE quote_events (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id text NOT NULL UNIQUE,
        type text NOT NULL,
        occurred_at bigint NOT NULL,
        partner_id text NOT NULL,
        quote_id text NOT NULL,
        payload text NOT NULL
      );
      CREATE INDEX quote_events_by_quote ON quote_events (quote_id);
      CREATE INDEX quote_events_by_occurred_at ON quote_events (occurred_at);
    `
  },
  {
    version: 4,
    name: "webhook subscriptions and the deliveries of quote events to them",
    sql: `
      ALTER TABLE quote_events ADD COLUMN fanned_out_at bigint;
      CREATE INDEX quote_events_not_fanned_out ON quote_events (position) WHERE fanned_out_at IS NULL;
      CREATE TABLE webhook_subscriptions (
        subscription_id text PRIMARY KEY,
        partner_id text NOT NULL,
        url text NOT NULL,
        event_types text[] NOT NULL,
        secret text NOT NULL,
        created_at bigint NOT NULL
      );
      CREATE INDEX webhook_subscriptions_by_partner ON webhook_subscriptions (partner_id, created_at);
      CREATE TABLE webhook_deliveries (
        delivery_id text PRIMARY KEY,
        subscription_id text NOT NULL REFERENCES webhook_subscriptions (subscription_id) ON DELETE CASCADE,
        event_position bigint NOT NULL,
        event_id text NOT NULL,
        partner_id text NOT NULL,
        quote_id text NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'delivered', 'dead_lettered')),
        attempts integer NOT NULL,
        created_at bigint NOT NULL,
        first_attempt_at bigint,
        last_attempt_at bigint,
        next_attempt_at bigint,
        last_error text,
        lease_owner text,
        lease_until bigint
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (subscription_id, quote_id, event_position)
        WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_by_partner ON webhook_deliveries (partner_id, created_at);
      CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
    `
  },
  {
    version: 5,
    name: "partner and key changes notified, for the caches of every instance",
    // on the channel PartnerChanges.ts LISTENs on; statement level: one notification per statement, and PostgreSQL
    // folds a transaction's equal ones into one; the schema as payload tells the schemas sharing a database apart
    sql: `
      CREATE FUNCTION notify_partner_changes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('kasko_partner_changes', TG_TABLE_SCHEMA);
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER partners_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON partners
        FOR EACH STATEMENT EXECUTE FUNCTION notify_partner_changes();
      CREATE TRIGGER subscription_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON subscription_keys
        FOR EACH STATEMENT EXECUTE FUNCTION notify_partner_changes();
    `
  },
  {
    version: 6,
    name: "rate-limit windows, counted for every instance together",
    // one row per key and window (aligned to the epoch); rows of ended windows are deleted by the limiter
    sql: `
      CREATE TABLE rate_limit_windows (
        key TEXT NOT NULL,
        window_start BIGINT NOT NULL,
        used INTEGER NOT NULL,
        PRIMARY KEY (key, window_start)
      );
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
    name: "rate limits counted by rate-limiter-flexible: one row per key, its points and when its window ends",
    // the table rate-limiter-flexible's PostgreSQL limiter would create, made here so it is made once, under the lock
    sql: `
      DROP TABLE rate_limit_windows;
      CREATE TABLE rate_limits (
        key VARCHAR(255) PRIMARY KEY,
        points INTEGER NOT NULL DEFAULT 0,
        expire BIGINT
      );
    `
  },
  {
    version: 9,
    name: "webhook subscriptions disabled by their endpoints (410 Gone, or failing for days), and since when they fail",
    sql: `
      ALTER TABLE webhook_subscriptions ADD COLUMN failing_since bigint;
      ALTER TABLE webhook_subscriptions ADD COLUMN disabled_at bigint;
      ALTER TABLE webhook_subscriptions ADD COLUMN disabled_reason text;
    `
  },
  {
    version: 10,
    name: "each webhook delivery's attempts: when, the answer's status, why it failed",
    sql: `
      ALTER TABLE webhook_deliveries ADD COLUMN attempt_log jsonb;
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
      ALTER TABLE partners ADD COLUMN products text;
    `
  },
  {
    version: 13,
    name: "sandbox keys: where a subscription key works",
    sql: `
      ALTER TABLE subscription_keys ADD COLUMN environment text NOT NULL DEFAULT 'production'
        CHECK (environment IN ('production', 'sandbox'));
    `
  }
]

// one number for kasko's migration lock, the same in every instance
const MIGRATION_LOCK = 7_032_026

const sha256 = (sql: string): string => createHash("sha256").update(sql).digest("hex")

/** Brings the schema up to date; throws MigrationRefused for a newer or edited one. */
export const migrate = async (client: PoolClient, known: ReadonlyArray<Migration> = MIGRATIONS): Promise<void> => {
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK])
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const applied = (
      await client.query<SchemaMigrations.AppliedMigration>(
        "SELECT version, checksum FROM schema_migrations ORDER BY version"
      )
    ).rows
    for (const migration of SchemaMigrations.pendingMigrationsOrThrow(applied, known, sha256)) {
      await client.query("BEGIN")
      try {
        await client.query(migration.sql)
        await client.query("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", [
          migration.version,
          migration.name,
          migration.checksum
        ])
        await client.query("COMMIT")
      } catch (error) {
        await client.query("ROLLBACK")
        throw error
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK])
  }
}
