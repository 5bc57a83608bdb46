/** The SQLite partner store remembers lookups, and forgets them the moment another connection changes the database. */
import { PartnerAdministration, PartnerStore } from "@kasko/core"
import { SqliteConnection, SqlitePartnerStore } from "@kasko/sqlite"
import { Effect, Option } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"

const directory = temporaryDirectory("kasko-partner-cache-")
afterAll(() => directory.remove())

const key = (prefix: string) => ({ key_prefix: prefix, key_hash: `hash-${prefix}` })
const matches = (prefix: string) => (hash: string) => hash === `hash-${prefix}`

describe("the SQLite partner store's memory", () => {
  it("sees a revocation and a suspension made through another connection on the next lookup", async () => {
    const filename = directory.newFile("partners.db")
    const service = SqliteConnection.openConnection({ filename })
    const admin = SqliteConnection.openConnection({ filename })
    const serviceStore = SqlitePartnerStore.makePartnerStore(service)
    const adminStore = SqlitePartnerStore.makePartnerStore(admin)
    const onService = <A, E>(program: Effect.Effect<A, E, PartnerStore.PartnerStore>) =>
      Effect.runPromise(Effect.provideService(program, PartnerStore.PartnerStore, serviceStore))
    const onAdmin = <A, E>(program: Effect.Effect<A, E, PartnerStore.PartnerStore>) =>
      Effect.runPromise(Effect.provideService(program, PartnerStore.PartnerStore, adminStore))
    try {
      await onAdmin(PartnerAdministration.addPartner({ partner_id: "partner-a", name: "A" }, key("aaaa00000001")))
      await onAdmin(PartnerAdministration.addSubscriptionKey("partner-a", key("aaaa00000002")))
      const lookup = (prefix: string) => onService(PartnerAdministration.partnerOfSubscriptionKey(prefix, matches(prefix)))
      // warm the service's memory
      expect(Option.isSome(await lookup("aaaa00000001"))).toBe(true)
      expect(Option.isSome(await lookup("aaaa00000001"))).toBe(true)

      await onAdmin(PartnerAdministration.revokeSubscriptionKey("partner-a", "aaaa00000001"))
      expect(await lookup("aaaa00000001")).toEqual(Option.none())
      expect(Option.isSome(await lookup("aaaa00000002"))).toBe(true)

      await onAdmin(PartnerAdministration.suspendPartner("partner-a"))
      expect(await lookup("aaaa00000002")).toEqual(Option.none())
    } finally {
      SqliteConnection.closeConnection(admin)
      SqliteConnection.closeConnection(service)
    }
  })
})
