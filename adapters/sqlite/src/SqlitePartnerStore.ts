/** PartnerStore on SQLite: partners and subscription keys (prefix and hash only). */
import { type Partner, PartnerStore, type StorageUnavailable } from "@kasko/core"
import type Database from "better-sqlite3"
import { Effect, Layer, Option } from "effect"
import { scopedConnection, type SqliteOptions } from "./Connection.js"
import { attempt, type SqliteOpenRefused } from "./SqliteErrors.js"

interface PartnerRow {
  readonly partner_id: string
  readonly name: string
  readonly cvr_number: string | null
  readonly status: "active" | "suspended"
  readonly created_at: number
}

const partnerOfRow = (row: PartnerRow): Partner.Partner => ({
  partner_id: row.partner_id,
  name: row.name,
  ...(row.cvr_number === null ? {} : { cvr_number: row.cvr_number }),
  status: row.status,
  created_at: row.created_at
})

const PARTNER_COLUMNS = "partner_id, name, cvr_number, status, created_at"
const KEY_COLUMNS = "partner_id, key_prefix, key_hash, created_at, revoked_at"

/** The PartnerStore operations over an open connection. */
export const makePartnerStore = (database: Database.Database): PartnerStore.PartnerStore["Type"] => {
  const insertPartner = database.prepare(
    `INSERT INTO partners (${PARTNER_COLUMNS}) VALUES (@partner_id, @name, @cvr_number, @status, @created_at) ON CONFLICT (partner_id) DO NOTHING`
  )
  const selectPartner = database.prepare<[string], PartnerRow>(`SELECT ${PARTNER_COLUMNS} FROM partners WHERE partner_id = ?`)
  const selectPartners = database.prepare<[], PartnerRow>(`SELECT ${PARTNER_COLUMNS} FROM partners ORDER BY partner_id`)
  const updateStatus = database.prepare<[string, string]>("UPDATE partners SET status = ? WHERE partner_id = ?")
  const insertKey = database.prepare(
    `INSERT INTO subscription_keys (${KEY_COLUMNS}) VALUES (@partner_id, @key_prefix, @key_hash, @created_at, @revoked_at)`
  )
  const selectKey = database.prepare<[string], Partner.SubscriptionKeyRecord>(`SELECT ${KEY_COLUMNS} FROM subscription_keys WHERE key_prefix = ?`)
  const selectKeys = database.prepare<[string], Partner.SubscriptionKeyRecord>(
    `SELECT ${KEY_COLUMNS} FROM subscription_keys WHERE partner_id = ? ORDER BY created_at, key_prefix`
  )
  // prefixes are hex, so LIKE needs no escaping; substr keeps the match exact and case-sensitive
  const revokeKeys = database.prepare<[number, string, string, string]>(
    "UPDATE subscription_keys SET revoked_at = ? WHERE partner_id = ? AND revoked_at IS NULL AND substr(key_prefix, 1, length(?)) = ?"
  )
  const setStatus = database.transaction((partnerId: string, status: string) => {
    updateStatus.run(status, partnerId)
    return selectPartner.get(partnerId)
  })

  return {
    insertPartner: (partner) =>
      attempt("insert partner", () =>
        database.transaction(() => insertPartner.run({ ...partner, cvr_number: partner.cvr_number ?? null }).changes === 1).immediate()
      ),
    findPartner: (partnerId) =>
      attempt("find partner", () => selectPartner.get(partnerId)).pipe(Effect.map((row) => Option.map(Option.fromNullable(row), partnerOfRow))),
    listPartners: attempt("list partners", () => selectPartners.all().map(partnerOfRow)),
    setPartnerStatus: (partnerId, status) =>
      attempt("set partner status", () => setStatus.immediate(partnerId, status)).pipe(
        Effect.map((row) => Option.map(Option.fromNullable(row), partnerOfRow))
      ),
    insertSubscriptionKey: (key) => attempt("insert subscription key", () => void database.transaction(() => insertKey.run(key)).immediate()),
    findSubscriptionKey: (keyPrefix) =>
      attempt("find subscription key", () => selectKey.get(keyPrefix)).pipe(Effect.map((row) => Option.fromNullable(row))),
    listSubscriptionKeys: (partnerId) => attempt("list subscription keys", () => selectKeys.all(partnerId)),
    revokeSubscriptionKeys: (partnerId, keyPrefix, revokedAt) =>
      attempt("revoke subscription keys", () =>
        database.transaction(() => revokeKeys.run(revokedAt, partnerId, keyPrefix, keyPrefix).changes).immediate()
      )
  }
}

/** The SQLite PartnerStore as a Layer on its own connection. */
export const layer = (options: SqliteOptions): Layer.Layer<PartnerStore.PartnerStore, StorageUnavailable | SqliteOpenRefused> =>
  Layer.scoped(PartnerStore.PartnerStore, Effect.map(scopedConnection(options), makePartnerStore))
