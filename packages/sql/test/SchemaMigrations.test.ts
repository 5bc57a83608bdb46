import { describe, expect, it } from "vitest"
import { planMigrations, type Migration } from "../src/SchemaMigrations.js"

// a stand-in hash: the plan only compares checksums, it never computes one itself
const checksumOf = (sql: string) => `#${sql.length}:${sql}`
const KNOWN: ReadonlyArray<Migration> = [
  { version: 1, name: "quotes", sql: "CREATE TABLE quotes (id text)" },
  { version: 2, name: "partners", sql: "CREATE TABLE partners (id text)" },
  { version: 3, name: "keys", sql: "CREATE TABLE keys (id text)" }
]
const appliedOf = (migrations: ReadonlyArray<Migration>) =>
  migrations.map((migration) => ({ version: migration.version, checksum: checksumOf(migration.sql) }))

describe("the migration plan both SQL stores follow", () => {
  it("applies every migration to an empty database, in order, with its checksum", () => {
    expect(planMigrations([], KNOWN, checksumOf)).toEqual({
      _tag: "Apply",
      pending: KNOWN.map((migration) => ({ ...migration, checksum: checksumOf(migration.sql) }))
    })
  })

  it("applies only what is missing, and nothing to an up-to-date database", () => {
    const plan = planMigrations(appliedOf(KNOWN.slice(0, 2)), KNOWN, checksumOf)
    expect(plan._tag === "Apply" && plan.pending.map((migration) => migration.version)).toEqual([3])
    expect(planMigrations(appliedOf(KNOWN), KNOWN, checksumOf)).toEqual({ _tag: "Apply", pending: [] })
  })

  it("refuses a schema from a newer kasko, naming both versions", () => {
    const newer = [...appliedOf(KNOWN), { version: 4, checksum: "unknown" }]
    expect(planMigrations(newer, KNOWN, checksumOf)).toEqual({
      _tag: "Refuse",
      reason:
        "the database has schema version 4, newer than this kasko knows (up to 3); upgrade kasko instead of opening it with an older one"
    })
  })

  it("refuses a database whose applied migration has been edited since, and applies nothing", () => {
    const edited = KNOWN.map((migration) =>
      migration.version === 2 ? { ...migration, sql: `${migration.sql}; -- edited` } : migration
    )
    expect(planMigrations(appliedOf(KNOWN.slice(0, 2)), edited, checksumOf)).toEqual({
      _tag: "Refuse",
      reason:
        "migration 2 (partners) differs from the one applied to this database; applied migrations must never be edited"
    })
  })
})
