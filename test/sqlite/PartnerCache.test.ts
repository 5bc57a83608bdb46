/**
 * Authentication remembers a subscription key that checked out — no hashing,
 * no lookup on the partner's next request — and forgets it the moment the
 * SQLite database changes through another connection (the `kasko` command
 * revoking a key or suspending a partner), while it stays remembered as long
 * as nothing changes.
 */
import { type Authentication as AuthenticationPort, PartnerStore } from "@kasko/core"
import { PartnerAdministration } from "@kasko/core/administration"
import { Authentication, SubscriptionKeys } from "@kasko/credentials"
import { SqliteConnection, SqlitePartnerStore } from "@kasko/sqlite"
import { Effect, Result } from "effect"
import { generateKeyPair, SignJWT } from "jose"
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { setImmediate as nextTurn } from "node:timers/promises"
import { afterAll, describe, expect, it, vi } from "vitest"
import { temporaryDirectory } from "../support.js"

const directory = temporaryDirectory("kasko-partner-cache-")
afterAll(() => directory.remove())

const RULES = { issuer: "kasko", audience: "kasko-partner-api", maxLifetimeSeconds: 86_400 }
const KASKO = join(import.meta.dirname, "..", "..", "packages", "server", "bin", "kasko.mjs")

describe("authentication's memory of subscription keys on SQLite", () => {
  it("looks a key up once while nothing changes, and sees a revocation and a suspension made through another connection on the next request", async () => {
    const filename = directory.newFile("partners.db")
    const service = SqliteConnection.openConnection({ filename })
    const admin = SqliteConnection.openConnection({ filename })
    const serviceStore = SqlitePartnerStore.makePartnerStore(service)
    let lookups = 0
    const countingStore: PartnerStore.PartnerStore["Service"] = {
      ...serviceStore,
      findSubscriptionKey: (prefix) =>
        Effect.suspend(() => {
          lookups += 1
          return serviceStore.findSubscriptionKey(prefix)
        })
    }
    const onAdmin = <A, E>(program: Effect.Effect<A, E, PartnerStore.PartnerStore>) =>
      Effect.runPromise(
        Effect.provideService(program, PartnerStore.PartnerStore, SqlitePartnerStore.makePartnerStore(admin))
      )
    const { privateKey, publicKey } = await generateKeyPair("ES256")
    const token = await new SignJWT({ scope: "offers:create" })
      .setProtectedHeader({ alg: "ES256" })
      .setSubject("partner-a")
      .setIssuer("kasko")
      .setAudience("kasko-partner-api")
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(privateKey)
    const authentication = await Effect.runPromise(
      Authentication.make(publicKey, RULES).pipe(Effect.provideService(PartnerStore.PartnerStore, countingStore))
    )
    const authenticate = (subscriptionKey: string) =>
      Effect.runPromise(
        Effect.result(
          authentication.authenticate(
            { authorization: `Bearer ${token}`, subscriptionKey },
            "offers:create" satisfies AuthenticationPort.Scope
          )
        )
      )
    try {
      const first = SubscriptionKeys.generateSubscriptionKey()
      const second = SubscriptionKeys.generateSubscriptionKey()
      await onAdmin(PartnerAdministration.addPartner({ partner_id: "partner-a", name: "A" }, first))
      await onAdmin(PartnerAdministration.addSubscriptionKey("partner-a", second))

      for (let request = 0; request < 5; request++) expect(Result.isSuccess(await authenticate(first.key))).toBe(true)
      expect(lookups).toBe(1)

      await onAdmin(PartnerAdministration.revokeSubscriptionKey("partner-a", first.key_prefix))
      expect(await authenticate(first.key)).toMatchObject(Result.fail({ reason: "invalid_subscription_key" }))
      expect(Result.isSuccess(await authenticate(second.key))).toBe(true)

      await onAdmin(PartnerAdministration.suspendPartner("partner-a"))
      expect(await authenticate(second.key)).toMatchObject(Result.fail({ reason: "invalid_subscription_key" }))
    } finally {
      SqliteConnection.closeConnection(admin)
      SqliteConnection.closeConnection(service)
    }
  })

  it("reads the database's change counter at most once a turn and a millisecond, and sees another process's commit after either", async () => {
    const dataDirectory = directory.newFile("another-process")
    const filename = join(dataDirectory, "kasko.db")
    const kasko = (...args: Array<string>) => {
      const run = spawnSync(process.execPath, [KASKO, ...args], {
        encoding: "utf8",
        env: { ...process.env, KASKO_DATA_DIR: dataDirectory }
      })
      expect(run.status, run.stderr).toBe(0)
    }
    kasko("partners", "add", "--id", "partner-b", "--name", "B")
    const service = SqliteConnection.openConnection({ filename })
    // the pragma's reads, counted
    let reads = 0
    const prepare = service.prepare.bind(service)
    service.prepare = ((source: string) => {
      const statement = prepare(source)
      if (source !== "PRAGMA data_version") return statement
      const get = statement.get.bind(statement)
      statement.get = (...parameters: Array<unknown>) => {
        reads++
        return get(...parameters)
      }
      return statement
    }) as typeof service.prepare
    let now = 1_000
    const clock = vi.spyOn(performance, "now").mockImplementation(() => now)
    try {
      const store = SqlitePartnerStore.makePartnerStore(service)
      const changes = () => Effect.runSync(store.changes)
      const before = changes()
      for (let request = 0; request < 50; request++) expect(changes()).toBe(before)
      expect(reads).toBe(1)
      // the command commits in another process within the turn and the millisecond: they keep the counter read
      kasko("partners", "suspend", "--id", "partner-b")
      expect(changes()).toBe(before)
      // a millisecond on, in the same turn, it is read again
      now += 1.5
      const after = changes()
      expect(after).not.toBe(before)
      expect(reads).toBe(2)
      // in the next turn, within the millisecond, too
      kasko("partners", "add", "--id", "partner-c", "--name", "C")
      await nextTurn()
      expect(changes()).not.toBe(after)
      expect(reads).toBe(3)
    } finally {
      clock.mockRestore()
      SqliteConnection.closeConnection(service)
    }
  }, 30_000)

  it("answers no counter from before a write once its database cannot be read", async () => {
    const filename = directory.newFile("closed.db")
    const service = SqliteConnection.openConnection({ filename })
    const admin = SqliteConnection.openConnection({ filename })
    try {
      const store = SqlitePartnerStore.makePartnerStore(service)
      expect(Result.isSuccess(Effect.runSync(Effect.result(store.changes)))).toBe(true)
      await Effect.runPromise(
        Effect.provideService(
          PartnerAdministration.addPartner(
            { partner_id: "partner-d", name: "D" },
            SubscriptionKeys.generateSubscriptionKey()
          ),
          PartnerStore.PartnerStore,
          SqlitePartnerStore.makePartnerStore(admin)
        )
      )
      SqliteConnection.closeConnection(service)
      // in the same turn, after a write: neither read may answer the counter read before it
      expect(Result.isFailure(Effect.runSync(Effect.result(store.changes)))).toBe(true)
      expect(Result.isFailure(Effect.runSync(Effect.result(store.changes)))).toBe(true)
    } finally {
      SqliteConnection.closeConnection(admin)
    }
  })
})
