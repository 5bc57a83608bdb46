/**
 * The PartnerStore on PostgreSQL, over a pool: partners and subscription
 * keys, and `changes`, which moves with this store's own writes and with what
 * the listener hears of other instances' (PartnerChanges.ts), so that
 * authentication can remember keys that checked out.
 */
import type { PartnerStore, StorageUnavailable } from "@kasko/core"
import { StoredRows } from "@kasko/sql"
import { Effect, Option } from "effect"
import type pg from "pg"
import { attempt } from "./PostgresErrors.js"

type PartnerRow = StoredRows.PartnerRow
const {
  PARTNER_COLUMNS,
  partnerOfRow,
  productsColumnOf,
  SUBSCRIPTION_KEY_ROW_COLUMNS: KEY_COLUMNS,
  subscriptionKeyOfRow,
  subscriptionKeyRowOf
} = StoredRows

// another instance's writes are invisible without a listener: every read is new, so nothing is remembered
const newEveryRead = () => {
  let reads = 0
  return Effect.sync(() => ++reads)
}

/**
 * The PartnerStore operations over a pool. `changes` moves with this store's
 * own writes at once, and with what `elsewhere` tells of other writers: `layer`
 * gives the listener's generation (PartnerChanges.ts); without one, every read
 * is new and nothing is remembered.
 */
export const makePartnerStore = (
  pool: pg.Pool,
  elsewhere: Effect.Effect<unknown, StorageUnavailable> = newEveryRead()
): PartnerStore.PartnerStore["Service"] => {
  // counted when the write has answered, committed or not: its notification may come later than the next read
  let ownWrites = 0
  const written = Effect.ensuring(
    Effect.sync(() => {
      ownWrites++
    })
  )
  return {
    insertPartner: (partner) =>
      attempt("insert partner", () =>
        pool.query(
          `INSERT INTO partners (${PARTNER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (partner_id) DO NOTHING`,
          [
            partner.partner_id,
            partner.name,
            partner.cvr_number ?? null,
            partner.status,
            partner.created_at,
            productsColumnOf(partner.products)
          ]
        )
      ).pipe(
        Effect.map((result) => result.rowCount === 1),
        written
      ),
    findPartner: (partnerId) =>
      attempt("find partner", () =>
        pool.query<PartnerRow>(`SELECT ${PARTNER_COLUMNS} FROM partners WHERE partner_id = $1`, [partnerId])
      ).pipe(Effect.map((result) => Option.map(Option.fromNullishOr(result.rows[0]), partnerOfRow))),
    listPartners: attempt("list partners", () =>
      pool.query<PartnerRow>(`SELECT ${PARTNER_COLUMNS} FROM partners ORDER BY partner_id`)
    ).pipe(Effect.map((result) => result.rows.map(partnerOfRow))),
    setPartnerStatus: (partnerId, status) =>
      attempt("set partner status", () =>
        pool.query<PartnerRow>(`UPDATE partners SET status = $2 WHERE partner_id = $1 RETURNING ${PARTNER_COLUMNS}`, [
          partnerId,
          status
        ])
      ).pipe(
        Effect.map((result) => Option.map(Option.fromNullishOr(result.rows[0]), partnerOfRow)),
        written
      ),
    setPartnerProducts: (partnerId, products) =>
      attempt("set partner products", () =>
        pool.query<PartnerRow>(`UPDATE partners SET products = $2 WHERE partner_id = $1 RETURNING ${PARTNER_COLUMNS}`, [
          partnerId,
          productsColumnOf(products)
        ])
      ).pipe(
        Effect.map((result) => Option.map(Option.fromNullishOr(result.rows[0]), partnerOfRow)),
        written
      ),
    insertSubscriptionKey: (key) =>
      attempt("insert subscription key", () =>
        pool.query(`INSERT INTO subscription_keys (${KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
          key.partner_id,
          key.key_prefix,
          key.key_hash,
          key.created_at,
          key.revoked_at,
          subscriptionKeyRowOf(key).environment
        ])
      ).pipe(Effect.asVoid, written),
    findSubscriptionKey: (keyPrefix) =>
      attempt("find subscription key", () =>
        pool.query<StoredRows.SubscriptionKeyRow>(
          `SELECT ${KEY_COLUMNS} FROM subscription_keys WHERE key_prefix = $1`,
          [keyPrefix]
        )
      ).pipe(Effect.map((result) => Option.map(Option.fromNullishOr(result.rows[0]), subscriptionKeyOfRow))),
    listSubscriptionKeys: (partnerId) =>
      attempt("list subscription keys", () =>
        pool.query<StoredRows.SubscriptionKeyRow>(
          `SELECT ${KEY_COLUMNS} FROM subscription_keys WHERE partner_id = $1 ORDER BY created_at, key_prefix`,
          [partnerId]
        )
      ).pipe(Effect.map((result) => result.rows.map(subscriptionKeyOfRow))),
    revokeSubscriptionKeys: (partnerId, keyPrefix, revokedAt) =>
      attempt("revoke subscription keys", () =>
        pool.query(
          "UPDATE subscription_keys SET revoked_at = $3 WHERE partner_id = $1 AND revoked_at IS NULL AND left(key_prefix, length($2)) = $2",
          [partnerId, keyPrefix, revokedAt]
        )
      ).pipe(
        Effect.map((result) => result.rowCount ?? 0),
        written
      ),
    changes: Effect.map(elsewhere, (value) => `${String(value)}:${ownWrites}`)
  }
}
