/**
 * `kasko backup` and `kasko restore`. The backup runs as its own process (as an
 * operator runs it) against the real service while clients keep creating
 * quotes; restored into a new data directory, it holds every quote
 * acknowledged before the backup began and passes PRAGMA integrity_check. And
 * each refusal: PostgreSQL configured, an existing file, a running service's
 * database, a file that is not kasko's, a damaged one, a newer schema.
 */
import { Examples } from "@kasko/core"
import { runCli } from "@kasko/server"
import { SqliteMigrations } from "@kasko/sqlite"
import Database from "better-sqlite3"
import { spawn } from "node:child_process"
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  writeSync,
  closeSync
} from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addPartner, type PartnerCredentials } from "../http/credentials.js"
import { startTestService, type TestService } from "../http/support.js"
import { temporaryDirectory } from "../support.js"

const KASKO = join(import.meta.dirname, "..", "..", "packages", "server", "bin", "kasko.mjs")
const CLIENTS = 6
const LATEST_SCHEMA = SqliteMigrations.MIGRATIONS.at(-1)!.version

const directory = temporaryDirectory("kasko-backup-")
const serviceDirectory = join(directory.path, "service")
let service: TestService
let partner: PartnerCredentials

beforeAll(async () => {
  partner = await addPartner(serviceDirectory, "backup-partner")
  service = await startTestService({
    dataDirectory: serviceDirectory,
    authentication: "real",
    environment: { KASKO_RATE_LIMIT_PER_MINUTE: "10000000" }
  })
}, 60_000)
afterAll(async () => {
  await service?.stop()
  directory.remove()
})

interface Outcome {
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
}

/** `kasko …` in this process, on the given data directory and environment. */
const kasko = async (environment: Record<string, string>, ...args: Array<string>): Promise<Outcome> => {
  const saved = { ...process.env }
  Object.assign(process.env, environment)
  try {
    return await runCli(args)
  } finally {
    for (const key of Object.keys(environment)) delete process.env[key]
    Object.assign(process.env, saved)
  }
}

/** `kasko …` as a process of its own, so that the service in this process keeps answering while it runs. */
const kaskoProcess = (environment: Record<string, string>, ...args: Array<string>) =>
  new Promise<Outcome>((resolve, reject) => {
    const child = spawn(process.execPath, [KASKO, ...args], { env: { ...process.env, ...environment } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("error", reject)
    child.on("close", (exitCode) => resolve({ exitCode: exitCode ?? -1, stdout, stderr }))
  })

/** Reads a database file without changing it. */
const readDatabase = <A>(file: string, read: (database: Database.Database) => A): A => {
  const database = new Database(file, { readonly: true, fileMustExist: true })
  try {
    return read(database)
  } finally {
    database.close()
  }
}

const integrityOf = (file: string) =>
  readDatabase(file, (database) => database.pragma("integrity_check", { simple: true }))

const quoteBody = JSON.stringify(Examples.quoteRequest())

/** Clients creating quotes back to back until stopped; remembers each quote acknowledged, in order. */
const writeLoad = () => {
  const acknowledged: Array<string> = []
  const statuses: Array<number> = []
  let running = true
  const client = async () => {
    while (running) {
      const response = await fetch(`${service.url}/insurance/car/quotes`, {
        method: "POST",
        headers: { ...partner.headers, "content-type": "application/json" },
        body: quoteBody
      })
      const answer = await response.text()
      statuses.push(response.status)
      if (response.status === 200) acknowledged.push(JSON.parse(answer).quote_id as string)
    }
  }
  const clients = Array.from({ length: CLIENTS }, client)
  return {
    acknowledged,
    statuses,
    stop: async () => {
      running = false
      await Promise.all(clients)
    }
  }
}

/** Waits until `condition` holds; fails after 30 s, saying what it waited for. */
const until = async (condition: () => boolean, what: () => string) => {
  const deadline = Date.now() + 30_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited 30 s for ${what()}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** A backup of the running service's database, written once by the first test that asks for one. */
let sharedBackup: string | undefined
const aBackup = async () => {
  if (sharedBackup === undefined) {
    const file = join(directory.path, "shared-backup.db")
    expect(await kasko({ KASKO_DATA_DIR: serviceDirectory }, "backup", "--out", file)).toMatchObject({ exitCode: 0 })
    sharedBackup = file
  }
  return sharedBackup
}

describe("kasko backup and kasko restore", () => {
  it("backs up under write load: restored into a new data directory, every quote acknowledged before the backup is there, intact", async () => {
    const load = writeLoad()
    const progress = () => `quotes; ${load.acknowledged.length} acknowledged, answers ${[...new Set(load.statuses)]}`
    await until(
      () => load.acknowledged.length >= 100,
      () => `100 ${progress()}`
    )
    const acknowledgedBefore = [...load.acknowledged]
    const backupFile = join(directory.path, "under-load.db")
    const backup = await kaskoProcess({ KASKO_DATA_DIR: serviceDirectory }, "backup", "--out", backupFile, "--json")
    const acknowledgedWhileBackingUp = load.acknowledged.length - acknowledgedBefore.length
    // the load goes on after the backup, so that the backup is shown to be a copy of one instant, not of the end
    const atBackupEnd = load.acknowledged.length
    await until(
      () => load.acknowledged.length >= atBackupEnd + 50,
      () => `${atBackupEnd + 50} ${progress()}`
    )
    await load.stop()

    console.log(
      `backup under load: ${JSON.stringify({
        acknowledged_before: acknowledgedBefore.length,
        acknowledged_while_backing_up: acknowledgedWhileBackingUp,
        acknowledged_in_all: load.acknowledged.length,
        backup: backup.stdout.replace(/\s+/g, " ")
      })}`
    )
    expect(backup.stderr).toBe("")
    expect(backup.exitCode).toBe(0)
    expect(new Set(load.statuses)).toEqual(new Set([200]))
    expect(acknowledgedWhileBackingUp).toBeGreaterThan(0)
    const report = JSON.parse(backup.stdout)
    expect(report).toEqual({
      file: backupFile,
      bytes: expect.any(Number),
      quotes: expect.any(Number),
      schema_version: LATEST_SCHEMA,
      integrity_check: "ok"
    })
    expect(report.quotes).toBeGreaterThanOrEqual(acknowledgedBefore.length)
    expect(report.quotes).toBeLessThan(load.acknowledged.length)
    expect(readdirSync(directory.path).filter((name) => name.startsWith("under-load"))).toEqual(["under-load.db"])

    const restoredDirectory = join(directory.path, "restored")
    const restore = await kasko({ KASKO_DATA_DIR: restoredDirectory }, "restore", "--from", backupFile)
    // a new data directory: the service must be pointed at it, and given the signing key kept with the backup
    expect(restore.stderr).toBe(
      `start the service: KASKO_DATA_DIR=${restoredDirectory} kasko serve\n` +
        `no signing-key.json in ${restoredDirectory}: put the one kept with the backup there, or the tokens issued before will not verify\n` +
        "no database with partners was replaced, so the partners and subscription keys are the backup's: revoke again any key revoked, and suspend again any partner suspended, since the backup was taken\n"
    )
    expect(restore).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/^restored: .*kasko\.db from /) })
    expect(readdirSync(restoredDirectory)).toEqual(["kasko.db"])

    const restoredFile = join(restoredDirectory, "kasko.db")
    expect(integrityOf(restoredFile)).toBe("ok")
    const restored = readDatabase(restoredFile, (database) => ({
      quoteIds: new Set(database.prepare<[], string>("SELECT quote_id FROM quotes").pluck().all()),
      // each quote and its quote.created event are written in one transaction: a consistent copy has both or neither
      quotesWithoutEvent: database
        .prepare<[], number>(
          "SELECT count(*) FROM quotes WHERE quote_id NOT IN (SELECT quote_id FROM quote_events WHERE type = 'quote.created')"
        )
        .pluck()
        .get(),
      foreignKeyProblems: database.pragma("foreign_key_check")
    }))
    expect(acknowledgedBefore.filter((quoteId) => !restored.quoteIds.has(quoteId))).toEqual([])
    expect(restored.quoteIds.size).toBe(report.quotes)
    expect(restored.quotesWithoutEvent).toBe(0)
    expect(restored.foreignKeyProblems).toEqual([])

    // the restored directory serves them: the same partner, its token checked with the same signing key
    copyFileSync(join(serviceDirectory, "signing-key.json"), join(restoredDirectory, "signing-key.json"))
    const restoredService = await startTestService({ dataDirectory: restoredDirectory, authentication: "real" })
    try {
      const missing: Array<string> = []
      for (const quoteId of acknowledgedBefore) {
        const response = await fetch(`${restoredService.url}/insurance/car/quotes/${quoteId}`, {
          headers: partner.headers
        })
        await response.text()
        if (response.status !== 200) missing.push(`${quoteId}: ${response.status}`)
      }
      expect(missing).toEqual([])
    } finally {
      await restoredService.stop()
    }
  }, 120_000)

  it("copies the quotes still in the write-ahead log, which a copy of the database file alone would miss", async () => {
    const fresh = temporaryDirectory("kasko-backup-wal-")
    try {
      // the schema made and checkpointed into the file before the service starts: only the quotes are in the log
      expect(await kasko({ KASKO_DATA_DIR: fresh.path }, "partners", "list")).toMatchObject({ exitCode: 0 })
      const other = await startTestService({ dataDirectory: fresh.path })
      const quoteIds: Array<string> = []
      try {
        for (let count = 0; count < 10; count++) {
          const response = await fetch(`${other.url}/insurance/car/quotes`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: quoteBody
          })
          expect(response.status).toBe(200)
          quoteIds.push(((await response.json()) as { quote_id: string }).quote_id)
        }
        const fileAlone = join(fresh.path, "file-alone.db")
        copyFileSync(join(fresh.path, "kasko.db"), fileAlone)
        expect(
          readDatabase(fileAlone, (database) => database.prepare("SELECT count(*) AS quotes FROM quotes").get())
        ).toEqual({
          quotes: 0
        })

        const backupFile = join(fresh.path, "backup.db")
        const backup = await kasko({ KASKO_DATA_DIR: fresh.path }, "backup", "--out", backupFile)
        expect(backup).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/, 10 quotes\n$/) })
        expect(
          readDatabase(backupFile, (database) =>
            database.prepare<[], string>("SELECT quote_id FROM quotes").pluck().all()
          )
        ).toEqual(expect.arrayContaining(quoteIds))

        // restored where a path needs quoting: the command it suggests can be pasted as it is
        const spaced = join(fresh.path, "data dir")
        const restore = await kasko({ KASKO_DATA_DIR: spaced }, "restore", "--from", backupFile)
        expect(restore.exitCode).toBe(0)
        expect(restore.stderr.split("\n")[0]).toBe(`start the service: KASKO_DATA_DIR='${spaced}' kasko serve`)
      } finally {
        await other.stop()
      }
    } finally {
      fresh.remove()
    }
  })

  it("refuses, with PostgreSQL configured, naming PostgreSQL's own tools", async () => {
    const postgres = { KASKO_DATA_DIR: serviceDirectory, KASKO_DATABASE_URL: "postgres://kasko@db.internal:5432/kasko" }
    const out = join(directory.path, "postgres.db")
    const backup = await kasko(postgres, "backup", "--out", out)
    expect(backup).toMatchObject({ exitCode: 1, stdout: "" })
    expect(backup.stderr).toMatch(/^kasko backup: KASKO_DATABASE_URL is set: .*pg_dump.*pg_basebackup.*\n$/)
    expect(existsSync(out)).toBe(false)
    const restore = await kasko(postgres, "restore", "--from", await aBackup(), "--force")
    expect(restore).toMatchObject({ exitCode: 1, stdout: "" })
    expect(restore.stderr).toMatch(/^kasko restore: KASKO_DATABASE_URL is set: .*pg_restore[^\n]*\n$/)
  })

  it("refuses to write over an existing file unless --force", async () => {
    const out = join(directory.path, "existing.db")
    writeFileSync(out, "an earlier file, kept")
    const refused = await kasko({ KASKO_DATA_DIR: serviceDirectory }, "backup", "--out", out)
    expect(refused).toEqual({
      exitCode: 1,
      stdout: "",
      stderr: `kasko backup: ${out} exists already; --force replaces it\n`
    })
    expect(readFileSync(out, "utf8")).toBe("an earlier file, kept")
    const forced = await kasko({ KASKO_DATA_DIR: serviceDirectory }, "backup", "--out", out, "--force")
    expect(forced).toMatchObject({
      exitCode: 0,
      stdout: expect.stringMatching(/^ok: .*existing\.db, \d+ bytes, \d+ quotes\n$/)
    })
    expect(integrityOf(out)).toBe("ok")
  })

  it("makes the folders --out names: a first backup into backups/ works as the operations guide writes it", async () => {
    const out = join(directory.path, "backups", "2026", "kasko-2026-03-02.db")
    const taken = await kasko({ KASKO_DATA_DIR: serviceDirectory }, "backup", "--out", out)
    expect(taken).toMatchObject({
      exitCode: 0,
      stdout: expect.stringMatching(/^ok: .*kasko-2026-03-02\.db, \d+ bytes/)
    })
    expect(integrityOf(out)).toBe("ok")
    expect(readdirSync(join(directory.path, "backups", "2026"))).toEqual(["kasko-2026-03-02.db"])
  })

  it("refuses when there is no database to back up", async () => {
    const empty = join(directory.path, "no-service")
    const result = await kasko({ KASKO_DATA_DIR: empty }, "backup", "--out", join(directory.path, "nothing.db"))
    expect(result).toMatchObject({ exitCode: 1, stdout: "" })
    expect(result.stderr).toBe(
      `kasko backup: there is no database at ${join(empty, "kasko.db")}: nothing to back up (is KASKO_DATA_DIR the service's?)\n`
    )
    expect(existsSync(join(directory.path, "nothing.db"))).toBe(false)
  })

  it("refuses to restore onto the database of a running service, even with --force, and restores once it is stopped", async () => {
    const running = temporaryDirectory("kasko-backup-running-")
    try {
      const other = await startTestService({ dataDirectory: running.path })
      const quote = await fetch(`${other.url}/insurance/car/quotes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: quoteBody
      })
      expect(quote.status).toBe(200)
      const backup = await aBackup()
      const refused = await kaskoProcess({ KASKO_DATA_DIR: running.path }, "restore", "--from", backup, "--force")
      expect(refused).toEqual({
        exitCode: 1,
        stdout: "",
        stderr: `kasko restore: ${join(running.path, "kasko.db")} is in use by a running service: stop the service, then restore\n`
      })
      expect((await fetch(`${other.url}/ready`)).status).toBe(200)
      await other.stop()
      expect(
        readDatabase(join(running.path, "kasko.db"), (database) =>
          database.prepare("SELECT count(*) AS quotes FROM quotes").get()
        )
      ).toEqual({ quotes: 1 })

      const withoutForce = await kasko({ KASKO_DATA_DIR: running.path }, "restore", "--from", backup)
      expect(withoutForce.stderr).toBe(
        `kasko restore: ${join(running.path, "kasko.db")} exists already; --force replaces it\n`
      )
      const restored = await kasko({ KASKO_DATA_DIR: running.path }, "restore", "--from", backup, "--force", "--json")
      expect(restored.exitCode).toBe(0)
      expect(JSON.parse(restored.stdout)).toMatchObject({ backup, replaced: true, integrity_check: "ok" })
      expect(restored.stderr).toMatch(/^the database that was there is replaced; start the service/)
    } finally {
      running.remove()
    }
  })

  it("refuses to restore the database onto itself", async () => {
    const database = join(serviceDirectory, "kasko.db")
    const result = await kasko({ KASKO_DATA_DIR: serviceDirectory }, "restore", "--from", database, "--force")
    expect(result).toEqual({
      exitCode: 1,
      stdout: "",
      stderr: `kasko restore: ${database} is the database itself, not a backup of it\n`
    })
    expect((await fetch(`${service.url}/ready`)).status).toBe(200)
  })

  it("removes the replaced database's -wal and -shm files, which would otherwise be replayed into the backup", async () => {
    const target = join(directory.path, "stale")
    mkdirSync(target)
    // a kasko database (one whose keys cannot be read is refused: the restore keeps its revocations)
    copyFileSync(await aBackup(), join(target, "kasko.db"))
    writeFileSync(join(target, "kasko.db-wal"), "its write-ahead log")
    writeFileSync(join(target, "kasko.db-shm"), "its shared memory")
    const restored = await kasko({ KASKO_DATA_DIR: target }, "restore", "--from", await aBackup(), "--force")
    expect(restored.exitCode).toBe(0)
    expect(readdirSync(target)).toEqual(["kasko.db"])
    expect(integrityOf(join(target, "kasko.db"))).toBe("ok")
  })

  it.each([
    [
      "not an SQLite file",
      (file: string) => writeFileSync(file, "quote_id,price\n".repeat(400)),
      "is not an SQLite database"
    ],
    [
      "another application's SQLite database",
      (file: string) => {
        const database = new Database(file)
        database.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
        database.close()
      },
      "is not a kasko database (no schema_migrations, store_info, quotes tables)"
    ]
  ])("refuses to restore %s", async (_name, make, message) => {
    const file = join(directory.path, `foreign-${_name.replaceAll(" ", "-")}.db`)
    make(file)
    const target = join(directory.path, `target-${_name.replaceAll(" ", "-")}`)
    const result = await kasko({ KASKO_DATA_DIR: target }, "restore", "--from", file)
    expect(result).toEqual({ exitCode: 1, stdout: "", stderr: `kasko restore: ${file} ${message}\n` })
    expect(existsSync(target)).toBe(false)
  })

  it("refuses to restore a damaged backup that only PRAGMA integrity_check finds out", async () => {
    // quotes enough for the quotes table to span pages, whatever ran before
    for (let count = 0; count < 30; count++) {
      const response = await fetch(`${service.url}/insurance/car/quotes`, {
        method: "POST",
        headers: { ...partner.headers, "content-type": "application/json" },
        body: quoteBody
      })
      expect(response.status).toBe(200)
      await response.text()
    }
    const file = join(directory.path, "damaged.db")
    expect(await kasko({ KASKO_DATA_DIR: serviceDirectory }, "backup", "--out", file)).toMatchObject({ exitCode: 0 })
    const { pageSize, quotesRootPage, quotes } = readDatabase(file, (database) => ({
      pageSize: database.pragma("page_size", { simple: true }) as number,
      quotesRootPage: database
        .prepare<[], number>("SELECT rootpage FROM sqlite_master WHERE name = 'quotes'")
        .pluck()
        .get()!,
      quotes: database.prepare<[], number>("SELECT count(*) FROM quotes").pluck().get()
    }))
    // the quotes table's root page overwritten: reading still answers (counting goes through an index), the table is broken
    const descriptor = openSync(file, "r+")
    writeSync(descriptor, Buffer.alloc(64, 0xff), 0, 64, (quotesRootPage - 1) * pageSize)
    closeSync(descriptor)
    expect(readDatabase(file, (database) => database.prepare("SELECT count(*) AS quotes FROM quotes").get())).toEqual({
      quotes
    })

    const target = join(directory.path, "target-damaged")
    const result = await kasko({ KASKO_DATA_DIR: target }, "restore", "--from", file)
    expect(result).toMatchObject({ exitCode: 1, stdout: "" })
    // what integrity_check reports names the broken page, as a driver error ("malformed") would not
    expect(result.stderr).toMatch(
      new RegExp(`^kasko restore: ${file} fails PRAGMA integrity_check: [^\\n]*page \\d+[^\\n]*\\n$`)
    )
    expect(existsSync(target)).toBe(false)
  })

  it("refuses to restore a backup whose schema is newer than this kasko knows", async () => {
    const file = join(directory.path, "newer.db")
    copyFileSync(await aBackup(), file)
    const database = new Database(file)
    database
      .prepare(
        "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (99, 'from the future', 'x', ?)"
      )
      .run(new Date().toISOString())
    database.close()
    const target = join(directory.path, "target-newer")
    const result = await kasko({ KASKO_DATA_DIR: target }, "restore", "--from", file)
    expect(result).toEqual({
      exitCode: 1,
      stdout: "",
      stderr: `kasko restore: ${file} cannot be restored: the database has schema version 99, newer than this kasko knows (up to ${LATEST_SCHEMA}); upgrade kasko instead of opening it with an older one\n`
    })
    expect(existsSync(target)).toBe(false)
  })
})

describe("a restore keeps the access the replaced database gives", () => {
  /** A request only the partner's token and the given key may make. */
  const productsWith = (url: string, credentials: PartnerCredentials, subscriptionKey: string) =>
    fetch(`${url}/products/insurance-car-leasing`, {
      headers: { ...credentials.headers, "ocp-apim-subscription-key": subscriptionKey }
    }).then((response) => response.status)

  it("keeps a key revoked since the backup revoked, and one issued since working, end to end: a partner's rotation survives it", async () => {
    const data = temporaryDirectory("kasko-backup-rotation-")
    try {
      const rotating = await addPartner(data.path, "rotating")
      const leaving = await addPartner(data.path, "leaving")
      const backup = join(data.path, "before-the-rotation.db")
      expect(await kasko({ KASKO_DATA_DIR: data.path }, "backup", "--out", backup)).toMatchObject({ exitCode: 0 })
      // after the backup: the partner rotates its key, another is suspended, a third joins
      const admin = (...args: Array<string>) => kasko({ KASKO_DATA_DIR: data.path }, ...args)
      const replacement = (await admin("keys", "add", "--partner", "rotating")).stdout.trim()
      const oldPrefix = rotating.subscriptionKey.split("_")[1]!
      const newPrefix = replacement.split("_")[1]!
      expect(await admin("keys", "revoke", "--partner", "rotating", "--key-prefix", oldPrefix)).toMatchObject({
        exitCode: 0
      })
      expect(await admin("partners", "suspend", "--id", "leaving")).toMatchObject({ exitCode: 0 })
      const joining = await addPartner(data.path, "joining")

      const restored = await admin("restore", "--from", backup, "--force")
      expect(restored.exitCode).toBe(0)
      expect(restored.stdout.split("\n").slice(1)).toEqual([
        "the replaced database's partners and subscription keys are kept:",
        `  kept revoked (revoked since the backup): rotating ${oldPrefix}`,
        `  kept working (issued since the backup): rotating ${newPrefix}, joining ${joining.subscriptionKey.split("_")[1]}`,
        "  kept suspended (suspended since the backup): leaving",
        "  kept (added since the backup, with their keys): joining",
        ""
      ])

      const restarted = await startTestService({ dataDirectory: data.path, authentication: "real" })
      try {
        expect(await productsWith(restarted.url, rotating, rotating.subscriptionKey)).toBe(401)
        expect(await productsWith(restarted.url, rotating, replacement)).toBe(200)
        expect(await productsWith(restarted.url, leaving, leaving.subscriptionKey)).toBe(401)
        expect(await productsWith(restarted.url, joining, joining.subscriptionKey)).toBe(200)
      } finally {
        await restarted.stop()
      }
    } finally {
      data.remove()
    }
  })

  it("says, restoring where no database of partners was, that the backup's keys are all it has: revoke again what was revoked since", async () => {
    const target = temporaryDirectory("kasko-backup-no-database-")
    try {
      const restored = await kasko({ KASKO_DATA_DIR: target.path }, "restore", "--from", await aBackup(), "--json")
      expect(restored.exitCode).toBe(0)
      expect(JSON.parse(restored.stdout)).toMatchObject({ replaced: false, access_kept: null })
      // a new machine's: any kasko command made an empty database there
      const emptied = join(target.path, "new-machine")
      expect(await kasko({ KASKO_DATA_DIR: emptied }, "partners", "list")).toMatchObject({ exitCode: 0 })
      const over = await kasko({ KASKO_DATA_DIR: emptied }, "restore", "--from", await aBackup(), "--force", "--json")
      expect(over.exitCode).toBe(0)
      expect(JSON.parse(over.stdout)).toMatchObject({ replaced: true, access_kept: null })
      expect(over.stderr).toContain("no database with partners was replaced")
      expect(restored.stderr).toContain(
        "no database with partners was replaced, so the partners and subscription keys are the backup's: revoke again any key revoked, and suspend again any partner suspended, since the backup was taken\n"
      )
    } finally {
      target.remove()
    }
  })

  it("refuses to replace a database whose keys it cannot read, saying how to go on, and leaves it as it was", async () => {
    const target = temporaryDirectory("kasko-backup-unreadable-")
    try {
      const database = join(target.path, "kasko.db")
      writeFileSync(database, "not a database at all, but the file the service left")
      const refused = await kasko({ KASKO_DATA_DIR: target.path }, "restore", "--from", await aBackup(), "--force")
      expect(refused).toMatchObject({ exitCode: 1, stdout: "" })
      expect(refused.stderr).toMatch(
        new RegExp(
          `^kasko restore: ${database}'s partners and subscription keys cannot be read: file is not a database; a restore keeps the revocations of the database it replaces, and cannot read these\\. Move it aside and restore again, then revoke again each key revoked \\(and suspend each partner suspended\\) since the backup was taken\\n$`
        )
      )
      expect(readFileSync(database, "utf8")).toBe("not a database at all, but the file the service left")
    } finally {
      target.remove()
    }
  })
})
