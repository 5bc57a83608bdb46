// The rival's database: better-sqlite3, WAL, synchronous=FULL (every commit reaches the disk before the
// answer, as kasko's SQLite store does in the bench). Partners and their subscription keys (SHA-256 only),
// quotes as JSON, and an outbox row per quote event, written in the quote's transaction.
import Database from "better-sqlite3"
import { createHash } from "node:crypto"

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS partners (
    partner_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'suspended'))
  ) STRICT;
  CREATE TABLE IF NOT EXISTS subscription_keys (
    key_hash TEXT PRIMARY KEY,
    partner_id TEXT NOT NULL REFERENCES partners (partner_id),
    revoked_at INTEGER
  ) STRICT;
  CREATE TABLE IF NOT EXISTS quotes (
    quote_id TEXT PRIMARY KEY,
    partner_id TEXT NOT NULL,
    policy_number TEXT NOT NULL,
    product_name TEXT NOT NULL,
    price_amount INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    activated_at INTEGER,
    quote_number TEXT UNIQUE,
    quote_json TEXT NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS outbox (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    partner_id TEXT NOT NULL,
    quote_id TEXT NOT NULL,
    occurred_at INTEGER NOT NULL,
    payload TEXT NOT NULL,
    sent_at INTEGER
  ) STRICT;
`

export const sha256 = (text) => createHash("sha256").update(text).digest("hex")

export const openStore = (file) => {
  const db = new Database(file)
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = FULL")
  db.pragma("busy_timeout = 5000")
  db.exec(SCHEMA)

  const insertPartner = db.prepare("INSERT INTO partners (partner_id, name, status) VALUES (?, ?, 'active')")
  const insertKey = db.prepare("INSERT INTO subscription_keys (key_hash, partner_id) VALUES (?, ?)")
  const partnerOfKey = db.prepare(
    `SELECT k.partner_id FROM subscription_keys k JOIN partners p USING (partner_id)
     WHERE k.key_hash = ? AND k.revoked_at IS NULL AND p.status = 'active'`
  )
  const insertQuote = db.prepare(
    `INSERT INTO quotes (quote_id, partner_id, policy_number, product_name, price_amount, created_at, quote_json)
     VALUES (@quote_id, @partner_id, @policy_number, @product_name, @price_amount, @created_at, @quote_json)`
  )
  const insertEvent = db.prepare(
    `INSERT INTO outbox (event_id, type, partner_id, quote_id, occurred_at, payload)
     VALUES (@event_id, @type, @partner_id, @quote_id, @occurred_at, @payload)`
  )
  const selectQuote = db.prepare(
    "SELECT quote_json, created_at, activated_at, quote_number FROM quotes WHERE quote_id = ? AND partner_id = ?"
  )
  const markActivated = db.prepare(
    "UPDATE quotes SET activated_at = ?, quote_number = ? WHERE quote_id = ? AND partner_id = ? AND activated_at IS NULL"
  )

  return {
    addPartner: db.transaction(({ partnerId, name, subscriptionKey }) => {
      insertPartner.run(partnerId, name)
      insertKey.run(sha256(subscriptionKey), partnerId)
    }),
    /** The active partner a subscription key belongs to, or undefined. */
    partnerOfKey: (subscriptionKey) => partnerOfKey.get(sha256(subscriptionKey))?.partner_id,
    /** One quote row and its quote.created outbox row, in one transaction. */
    createQuote: db.transaction((row, event) => {
      insertQuote.run(row)
      insertEvent.run(event)
    }),
    findQuote: (quoteId, partnerId) => selectQuote.get(quoteId, partnerId),
    /** Marks a quote activated and writes its quote.activated event; false if it already was. */
    activateQuote: db.transaction((quoteId, partnerId, activatedAt, quoteNumber, eventOf) => {
      if (markActivated.run(activatedAt, quoteNumber, quoteId, partnerId).changes === 0) return false
      insertEvent.run(eventOf(selectQuote.get(quoteId, partnerId)))
      return true
    }),
    close: () => db.close()
  }
}
