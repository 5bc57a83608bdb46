/**
 * Who may call the service — partners and their subscription keys — carried
 * from the database a restore replaces into the backup put in its place. A
 * backup is older than the database it replaces: restored as it is, a key
 * revoked since would work again and a key issued since (the partner's
 * replacement for it) would be refused. The replaced database is the later
 * word on access, so its partners and keys are kept, and a revocation is
 * never undone: a key revoked in either stays revoked. Quotes, webhooks and
 * everything else are the backup's.
 * @module
 */
import { StoredRows } from "@kasko/sql"
import type Database from "better-sqlite3"

type PartnerRow = StoredRows.PartnerRow

/** A subscription key's row: its prefix and hash, never the key. */
export interface KeyRow {
  readonly partner_id: string
  readonly key_prefix: string
  readonly key_hash: string
  readonly created_at: number
  readonly revoked_at: number | null
  /** Where it works; a database older than sandbox keys (schema version 13) has only production keys. */
  readonly environment: "production" | "sandbox"
}

/** The partners and subscription keys of a database. */
export interface AccessRecords {
  readonly partners: ReadonlyArray<PartnerRow>
  readonly keys: ReadonlyArray<KeyRow>
}

/** A subscription key as the restore names it: the partner's id and the key's prefix. */
export interface KeyName {
  readonly partner_id: string
  readonly key_prefix: string
}

/** What the restore kept from the replaced database that the backup has otherwise: the access it would have changed. */
export interface AccessKept {
  /** Revoked in the replaced database, active in the backup: still revoked. */
  readonly keys_kept_revoked: ReadonlyArray<KeyName>
  /** In the replaced database, active, of an active partner, and not in the backup (issued since it): still working. */
  readonly keys_kept_working: ReadonlyArray<KeyName>
  /** Suspended in the replaced database, active in the backup or not in it: still suspended. */
  readonly partners_kept_suspended: ReadonlyArray<string>
  /** In the replaced database and not in the backup (added since it): still there, with their keys. */
  readonly partners_kept: ReadonlyArray<string>
}

const hasTable = (database: Database.Database, table: string): boolean =>
  database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined

// the products a partner may sell came with schema version 12: an older database's partners sell every product
const hasColumn = (database: Database.Database, table: string, name: string): boolean =>
  database
    .prepare<[string], { name: string }>("SELECT name FROM pragma_table_info(?)")
    .all(table)
    .some((column) => column.name === name)
const hasProducts = (database: Database.Database): boolean => hasColumn(database, "partners", "products")
// sandbox keys came with schema version 13
const hasEnvironment = (database: Database.Database): boolean => hasColumn(database, "subscription_keys", "environment")

const COLUMNS_BEFORE_PRODUCTS = "partner_id, name, cvr_number, status, created_at"

/** The partners and keys of a database; none when it has no such tables (empty, or older than partners). */
export const readAccessRecords = (database: Database.Database): AccessRecords => ({
  partners: hasTable(database, "partners")
    ? database
        .prepare<[], PartnerRow>(
          `SELECT ${hasProducts(database) ? StoredRows.PARTNER_COLUMNS : `${COLUMNS_BEFORE_PRODUCTS}, NULL AS products`} FROM partners`
        )
        .all()
    : [],
  keys: hasTable(database, "subscription_keys")
    ? database
        .prepare<[], KeyRow>(
          `SELECT ${StoredRows.SUBSCRIPTION_KEY_COLUMNS}, ${hasEnvironment(database) ? "environment" : "'production' AS environment"} FROM subscription_keys`
        )
        .all()
    : []
})

/**
 * Writes `kept` — the replaced database's partners and keys — into `database`,
 * the restored copy, in one transaction, and answers what that changed. A
 * revocation the copy has stays (a key revoked in the backup is not revived by
 * a replaced database that did not know of it). Refuses a copy without the
 * partners tables when there is something to keep (a backup from before
 * partners existed; the service's migrations would otherwise create them empty).
 */
export const keepAccessRecords = (database: Database.Database, kept: AccessRecords): AccessKept => {
  const none: AccessKept = {
    keys_kept_revoked: [],
    keys_kept_working: [],
    partners_kept_suspended: [],
    partners_kept: []
  }
  if (kept.partners.length === 0 && kept.keys.length === 0) return none
  if (!hasTable(database, "partners") || !hasTable(database, "subscription_keys"))
    throw new Error("the backup predates partners and subscription keys, so the replaced database's cannot be kept")
  const withProducts = hasProducts(database)
  // a restriction the copy could not hold would be lost, and the partner sell every product again
  if (!withProducts && kept.partners.some((partner) => partner.products !== null))
    throw new Error(
      "the backup predates the products partners may sell, so the replaced database's restrictions cannot be kept"
    )
  const withEnvironment = hasEnvironment(database)
  // a sandbox key the copy could not tell apart would work in production
  if (!withEnvironment && kept.keys.some((key) => key.environment === "sandbox"))
    throw new Error("the backup predates sandbox keys, so the replaced database's sandbox keys cannot be kept")
  const before = readAccessRecords(database)
  const partnersBefore = new Map(before.partners.map((partner) => [partner.partner_id, partner]))
  const keysBefore = new Map(before.keys.map((key) => [key.key_prefix, key]))
  const upsertPartner = database.prepare<[PartnerRow]>(
    withProducts
      ? `INSERT INTO partners (${StoredRows.PARTNER_COLUMNS})
         VALUES (@partner_id, @name, @cvr_number, @status, @created_at, @products)
         ON CONFLICT (partner_id) DO UPDATE SET name = excluded.name, cvr_number = excluded.cvr_number,
           status = excluded.status, products = excluded.products`
      : `INSERT INTO partners (${COLUMNS_BEFORE_PRODUCTS})
         VALUES (@partner_id, @name, @cvr_number, @status, @created_at)
         ON CONFLICT (partner_id) DO UPDATE SET name = excluded.name, cvr_number = excluded.cvr_number,
           status = excluded.status`
  )
  const upsertKey = database.prepare<[KeyRow]>(
    withEnvironment
      ? `INSERT INTO subscription_keys (${StoredRows.SUBSCRIPTION_KEY_COLUMNS}, environment)
         VALUES (@partner_id, @key_prefix, @key_hash, @created_at, @revoked_at, @environment)
         ON CONFLICT (key_prefix) DO UPDATE SET partner_id = excluded.partner_id, key_hash = excluded.key_hash,
           created_at = excluded.created_at, environment = excluded.environment,
           revoked_at = COALESCE(excluded.revoked_at, subscription_keys.revoked_at)`
      : `INSERT INTO subscription_keys (${StoredRows.SUBSCRIPTION_KEY_COLUMNS})
         VALUES (@partner_id, @key_prefix, @key_hash, @created_at, @revoked_at)
         ON CONFLICT (key_prefix) DO UPDATE SET partner_id = excluded.partner_id, key_hash = excluded.key_hash,
           created_at = excluded.created_at, revoked_at = COALESCE(excluded.revoked_at, subscription_keys.revoked_at)`
  )
  database.transaction(() => {
    for (const partner of kept.partners) upsertPartner.run(partner)
    for (const key of kept.keys) upsertKey.run(key)
  })()
  const suspended = new Set(kept.partners.filter((partner) => partner.status === "suspended").map((p) => p.partner_id))
  const name = ({ partner_id, key_prefix }: KeyRow): KeyName => ({ partner_id, key_prefix })
  return {
    keys_kept_revoked: kept.keys
      .filter((key) => key.revoked_at !== null && keysBefore.get(key.key_prefix)?.revoked_at === null)
      .map(name),
    keys_kept_working: kept.keys
      .filter((key) => key.revoked_at === null && !keysBefore.has(key.key_prefix) && !suspended.has(key.partner_id))
      .map(name),
    partners_kept_suspended: kept.partners
      .filter(
        (partner) => partner.status === "suspended" && partnersBefore.get(partner.partner_id)?.status !== "suspended"
      )
      .map((partner) => partner.partner_id),
    partners_kept: kept.partners
      .filter((partner) => !partnersBefore.has(partner.partner_id))
      .map((partner) => partner.partner_id)
  }
}
