/**
 * PartnerStore on SQLite: partners and subscription keys (prefix and hash only).
 * @module
 */
import { PartnerStore, type StorageUnavailable } from "@kasko/core"
import { StoredRows } from "@kasko/sql"
import type Database from "better-sqlite3"
import { Effect, Layer, Option } from "effect"
import { scopedConnection, type SqliteOptions } from "./SqliteConnection.js"
import { attempt, type SqliteOpenRefused } from "./SqliteErrors.js"
import { performance } from "node:perf_hooks"
import { setImmediate } from "node:timers"

type PartnerRow = StoredRows.PartnerRow
const {
  PARTNER_COLUMNS,
  partnerOfRow,
  productsColumnOf,
  SUBSCRIPTION_KEY_ROW_COLUMNS: KEY_COLUMNS,
  subscriptionKeyOfRow,
  subscriptionKeyRowOf
} = StoredRows

/** Partner and key writes through any SqlitePartnerStore of this thread, whichever connection made them. */
let writesInThisThread = 0

/**
 * How long a read of the change counter may serve: a turn of the event loop that runs long (a fiber resumed from
 * setImmediate, a poll phase under a flood of connections) must not keep it.
 */
const COUNTER_MILLIS = 1

/**
 * The PartnerStore operations over an open connection. `changes` moves with
 * every partner or key write of this thread and with every other connection's
 * commits (`PRAGMA data_version` — the `kasko` command revoking a key, say), so
 * what remembers lookups sees a revocation or suspension on the next request.
 * The pragma costs ~4 µs on a busy service (under 1 µs alone), so a read is
 * shared by the requests authenticated in the same turn of the event loop and
 * within COUNTER_MILLIS of it: another process's commit is seen by every
 * request authenticated a millisecond after it, or from the next turn on.
 */
export const makePartnerStore = (database: Database.Database): PartnerStore.PartnerStore["Service"] => {
  const dataVersion = database.prepare("PRAGMA data_version").pluck()
  const changing = <A>(write: () => A): A => {
    try {
      return write()
    } finally {
      writesInThisThread++
    }
  }
  let counter: string | undefined
  let counterWrites = 0
  let counterReadAt = 0
  const forgetCounter = () => {
    counter = undefined
  }
  const changeCounter = (): string => {
    const now = performance.now()
    if (counter === undefined || counterWrites !== writesInThisThread || now - counterReadAt > COUNTER_MILLIS) {
      // read before anything is kept: a read that throws leaves no counter to be trusted
      const writes = writesInThisThread
      const read = `${String(dataVersion.get())}:${writes}`
      if (counter === undefined) setImmediate(forgetCounter)
      counter = read
      counterWrites = writes
      counterReadAt = now
    }
    return counter
  }
  const insertPartner = database.prepare(
    `INSERT INTO partners (${PARTNER_COLUMNS}) VALUES (@partner_id, @name, @cvr_number, @status, @created_at, @products) ON CONFLICT (partner_id) DO NOTHING`
  )
  const selectPartner = database.prepare<[string], PartnerRow>(
    `SELECT ${PARTNER_COLUMNS} FROM partners WHERE partner_id = ?`
  )
  const selectPartners = database.prepare<[], PartnerRow>(`SELECT ${PARTNER_COLUMNS} FROM partners ORDER BY partner_id`)
  const updateStatus = database.prepare<[string, string]>("UPDATE partners SET status = ? WHERE partner_id = ?")
  const updateProducts = database.prepare<[string | null, string]>(
    "UPDATE partners SET products = ? WHERE partner_id = ?"
  )
  const insertKey = database.prepare(
    `INSERT INTO subscription_keys (${KEY_COLUMNS}) VALUES (@partner_id, @key_prefix, @key_hash, @created_at, @revoked_at, @environment)`
  )
  const selectKey = database.prepare<[string], StoredRows.SubscriptionKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM subscription_keys WHERE key_prefix = ?`
  )
  const selectKeys = database.prepare<[string], StoredRows.SubscriptionKeyRow>(
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
  const setProducts = database.transaction((partnerId: string, products: string | null) => {
    updateProducts.run(products, partnerId)
    return selectPartner.get(partnerId)
  })

  return {
    insertPartner: (partner) =>
      attempt("insert partner", () =>
        changing(() =>
          database
            .transaction(
              () =>
                insertPartner.run({
                  ...partner,
                  cvr_number: partner.cvr_number ?? null,
                  products: productsColumnOf(partner.products)
                }).changes === 1
            )
            .immediate()
        )
      ),
    findPartner: (partnerId) =>
      attempt("find partner", () => selectPartner.get(partnerId)).pipe(
        Effect.map((row) => Option.map(Option.fromNullishOr(row), partnerOfRow))
      ),
    listPartners: attempt("list partners", () => selectPartners.all().map(partnerOfRow)),
    setPartnerStatus: (partnerId, status) =>
      attempt("set partner status", () => changing(() => setStatus.immediate(partnerId, status))).pipe(
        Effect.map((row) => Option.map(Option.fromNullishOr(row), partnerOfRow))
      ),
    setPartnerProducts: (partnerId, products) =>
      attempt("set partner products", () =>
        changing(() => setProducts.immediate(partnerId, productsColumnOf(products)))
      ).pipe(Effect.map((row) => Option.map(Option.fromNullishOr(row), partnerOfRow))),
    insertSubscriptionKey: (key) =>
      attempt("insert subscription key", () =>
        changing(() => void database.transaction(() => insertKey.run(subscriptionKeyRowOf(key))).immediate())
      ),
    findSubscriptionKey: (keyPrefix) =>
      attempt("find subscription key", () => selectKey.get(keyPrefix)).pipe(
        Effect.map((row) => Option.map(Option.fromNullishOr(row), subscriptionKeyOfRow))
      ),
    listSubscriptionKeys: (partnerId) =>
      attempt("list subscription keys", () => selectKeys.all(partnerId).map(subscriptionKeyOfRow)),
    revokeSubscriptionKeys: (partnerId, keyPrefix, revokedAt) =>
      attempt("revoke subscription keys", () =>
        changing(() =>
          database.transaction(() => revokeKeys.run(revokedAt, partnerId, keyPrefix, keyPrefix).changes).immediate()
        )
      ),
    changes: attempt("read the change counter", changeCounter)
  }
}

/** The SQLite PartnerStore as a Layer on its own connection. */
export const layer = (
  options: SqliteOptions
): Layer.Layer<PartnerStore.PartnerStore, StorageUnavailable | SqliteOpenRefused> =>
  Layer.effect(PartnerStore.PartnerStore, Effect.map(scopedConnection(options), makePartnerStore))
