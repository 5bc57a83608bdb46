/**
 * What a restore keeps of the database it replaces: its partners and keys
 * win over the backup's, and a revocation is never undone, whichever of the
 * two made it.
 */
import { SqliteAccessRecords, SqliteMigrations } from "@kasko/sqlite"
import Database from "better-sqlite3"
import { expect, it } from "vitest"

const migrated = () => {
  const database = new Database(":memory:")
  SqliteMigrations.migrate(database)
  return database
}

const partner = (partner_id: string, status: "active" | "suspended" = "active") => ({
  partner_id,
  name: `${partner_id} A/S`,
  cvr_number: null,
  status,
  created_at: 1,
  products: null
})

const key = (partner_id: string, key_prefix: string, revoked_at: number | null = null) => ({
  partner_id,
  key_prefix,
  key_hash: `hash of ${key_prefix}`,
  created_at: 2,
  revoked_at,
  environment: "production" as "production" | "sandbox"
})

const withRecords = (records: SqliteAccessRecords.AccessRecords) => {
  const database = migrated()
  const insertPartner = database.prepare(
    "INSERT INTO partners (partner_id, name, cvr_number, status, created_at, products) VALUES (@partner_id, @name, @cvr_number, @status, @created_at, @products)"
  )
  const insertKey = database.prepare(
    "INSERT INTO subscription_keys (partner_id, key_prefix, key_hash, created_at, revoked_at, environment) VALUES (@partner_id, @key_prefix, @key_hash, @created_at, @revoked_at, @environment)"
  )
  for (const row of records.partners) insertPartner.run(row)
  for (const row of records.keys) insertKey.run(row)
  return database
}

it("keeps the replaced database's revocations and new keys, and a revocation only the backup has", () => {
  const backup = withRecords({
    partners: [partner("bilhuset"), partner("leaving")],
    keys: [key("bilhuset", "aaaa"), key("bilhuset", "bbbb", 5), key("leaving", "cccc")]
  })
  // the replaced database: aaaa revoked and dddd issued since; bbbb it never saw revoked (restored from older)
  const replaced = {
    partners: [partner("bilhuset"), partner("leaving", "suspended")],
    keys: [key("bilhuset", "aaaa", 9), key("bilhuset", "bbbb"), key("bilhuset", "dddd"), key("leaving", "cccc")]
  }
  const kept = SqliteAccessRecords.keepAccessRecords(backup, replaced)
  expect(kept).toEqual({
    keys_kept_revoked: [{ partner_id: "bilhuset", key_prefix: "aaaa" }],
    keys_kept_working: [{ partner_id: "bilhuset", key_prefix: "dddd" }],
    partners_kept_suspended: ["leaving"],
    partners_kept: []
  })
  const revokedAt = Object.fromEntries(
    SqliteAccessRecords.readAccessRecords(backup).keys.map((row) => [row.key_prefix, row.revoked_at])
  )
  expect(revokedAt).toEqual({ aaaa: 9, bbbb: 5, cccc: null, dddd: null })
  expect(
    SqliteAccessRecords.readAccessRecords(backup).partners.find((row) => row.partner_id === "leaving")?.status
  ).toBe("suspended")
})

it("changes nothing when the replaced database has no partners, and reads none from a database without the tables", () => {
  const backup = withRecords({ partners: [partner("bilhuset")], keys: [key("bilhuset", "aaaa")] })
  const empty = new Database(":memory:")
  const none = SqliteAccessRecords.readAccessRecords(empty)
  expect(none).toEqual({ partners: [], keys: [] })
  expect(SqliteAccessRecords.keepAccessRecords(backup, none)).toEqual({
    keys_kept_revoked: [],
    keys_kept_working: [],
    partners_kept_suspended: [],
    partners_kept: []
  })
  expect(SqliteAccessRecords.readAccessRecords(backup).keys).toEqual([key("bilhuset", "aaaa")])
})

it("keeps the products the replaced database restricts a partner to, and refuses a backup that could not hold them", () => {
  const backup = withRecords({ partners: [partner("bilhuset")], keys: [] })
  const restricted = { ...partner("bilhuset"), products: JSON.stringify(["insurance-car-leasing"]) }
  SqliteAccessRecords.keepAccessRecords(backup, { partners: [restricted], keys: [] })
  expect(SqliteAccessRecords.readAccessRecords(backup).partners).toEqual([restricted])

  const beforeProducts = new Database(":memory:")
  SqliteMigrations.migrate(
    beforeProducts,
    SqliteMigrations.MIGRATIONS.filter((migration) => migration.version < 12)
  )
  beforeProducts
    .prepare("INSERT INTO partners (partner_id, name, cvr_number, status, created_at) VALUES (?, ?, NULL, 'active', 1)")
    .run("bilhuset", "bilhuset A/S")
  expect(SqliteAccessRecords.readAccessRecords(beforeProducts).partners).toEqual([partner("bilhuset")])
  expect(() => SqliteAccessRecords.keepAccessRecords(beforeProducts, { partners: [restricted], keys: [] })).toThrow(
    "predates the products partners may sell"
  )
  SqliteAccessRecords.keepAccessRecords(beforeProducts, { partners: [partner("bilhuset", "suspended")], keys: [] })
  expect(SqliteAccessRecords.readAccessRecords(beforeProducts).partners).toEqual([partner("bilhuset", "suspended")])
})

it("keeps a sandbox key a sandbox key, and refuses a backup that could not tell it apart", () => {
  const sandboxKey = { ...key("bilhuset", "aaaa"), environment: "sandbox" as const }
  const backup = withRecords({ partners: [partner("bilhuset")], keys: [] })
  SqliteAccessRecords.keepAccessRecords(backup, { partners: [partner("bilhuset")], keys: [sandboxKey] })
  expect(SqliteAccessRecords.readAccessRecords(backup).keys).toEqual([sandboxKey])

  const beforeSandbox = new Database(":memory:")
  SqliteMigrations.migrate(
    beforeSandbox,
    SqliteMigrations.MIGRATIONS.filter((migration) => migration.version < 13)
  )
  expect(() =>
    SqliteAccessRecords.keepAccessRecords(beforeSandbox, { partners: [partner("bilhuset")], keys: [sandboxKey] })
  ).toThrow("predates sandbox keys")
})
