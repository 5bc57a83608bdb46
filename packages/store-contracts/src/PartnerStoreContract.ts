/** The partner storage contract every PartnerStore honours, exercised through the core's administration programs. */
import { PartnerAdministration } from "@kasko/core/administration"
import { PartnerStore } from "@kasko/core"
import { Effect, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"

type StoreLayer = Layer.Layer<PartnerStore.PartnerStore, unknown>

const key = (prefix: string) => ({ key_prefix: prefix, key_hash: `hash-of-${prefix}` })

/**
 * Registers the PartnerStore contract's vitest suite for a store named `name`: call it from the store's own test
 * file, with a factory of fresh, empty PartnerStore Layers.
 */
export const partnerStoreContract = (name: string, makeLayer: () => StoreLayer): void => {
  describe(`PartnerStore contract: ${name}`, () => {
    const run = <A, E>(program: Effect.Effect<A, E, PartnerStore.PartnerStore>) =>
      Effect.runPromise(
        Effect.andThen(TestClock.setTime(Date.parse("2026-03-02T09:00:00Z")), program).pipe(
          Effect.provide(makeLayer()),
          Effect.provide(TestClock.layer())
        ) as Effect.Effect<A, unknown>
      )

    it("adds partners with a first key, lists them by id, and refuses a taken id", async () => {
      const outcome = await run(
        Effect.gen(function* () {
          yield* PartnerAdministration.addPartner(
            { partner_id: "zeta-leasing", name: "Zeta Leasing A/S", cvr_number: "12345674" },
            key("aaaa0001")
          )
          yield* PartnerAdministration.addPartner({ partner_id: "alfa-biler", name: "Alfa Biler ApS" }, key("aaaa0002"))
          const duplicate = yield* Effect.flip(
            PartnerAdministration.addPartner({ partner_id: "alfa-biler", name: "Other" }, key("aaaa0003"))
          )
          return { partners: yield* PartnerAdministration.listPartners, duplicate }
        })
      )
      expect(outcome.partners).toEqual([
        {
          partner_id: "alfa-biler",
          name: "Alfa Biler ApS",
          status: "active",
          created_at: Date.parse("2026-03-02T09:00:00Z")
        },
        {
          partner_id: "zeta-leasing",
          name: "Zeta Leasing A/S",
          cvr_number: "12345674",
          status: "active",
          created_at: Date.parse("2026-03-02T09:00:00Z")
        }
      ])
      expect(outcome.duplicate).toMatchObject({ _tag: "PartnerAlreadyExists", partner_id: "alfa-biler" })
    })

    it("validates a new partner: id form, name, CVR", async () => {
      const error = await run(
        Effect.flip(
          PartnerAdministration.addPartner({ partner_id: "Bad Id", name: "", cvr_number: "12345678" }, key("bbbb0001"))
        )
      )
      expect(error).toMatchObject({ _tag: "ConstraintViolation" })
      expect(
        (error as unknown as { violations: Array<{ field: string }> }).violations.map((violation) => violation.field)
      ).toEqual(["partner_id", "name", "cvr_number"])
    })

    it("finds a key by its prefix, revoked or not, and its partner in its status", async () => {
      const outcome = await run(
        Effect.gen(function* () {
          const store = yield* PartnerStore.PartnerStore
          yield* PartnerAdministration.addPartner({ partner_id: "partner-a", name: "A" }, key("cccc0001"))
          yield* PartnerAdministration.addSubscriptionKey("partner-a", key("cccc0002"))
          const found = yield* store.findSubscriptionKey("cccc0001")
          const unknown = yield* store.findSubscriptionKey("ffff0000")
          const revokedCount = yield* PartnerAdministration.revokeSubscriptionKey("partner-a", "cccc0001")
          const revoked = yield* store.findSubscriptionKey("cccc0001")
          const rotated = yield* store.findSubscriptionKey("cccc0002")
          yield* PartnerAdministration.suspendPartner("partner-a")
          const suspended = yield* store.findPartner("partner-a")
          return { found, unknown, revokedCount, revoked, rotated, suspended }
        })
      )
      expect(outcome.found).toEqual(
        Option.some({
          partner_id: "partner-a",
          key_prefix: "cccc0001",
          key_hash: "hash-of-cccc0001",
          created_at: expect.any(Number),
          revoked_at: null
        })
      )
      expect(outcome.unknown).toEqual(Option.none())
      expect(outcome.revokedCount).toBe(1)
      expect(Option.getOrThrow(outcome.revoked).revoked_at).toEqual(expect.any(Number))
      expect(Option.getOrThrow(outcome.rotated).revoked_at).toBeNull()
      expect(Option.getOrThrow(outcome.suspended).status).toBe("suspended")
    })

    it("moves its change counter on every write to partners and keys", async () => {
      const outcome = await run(
        Effect.gen(function* () {
          const store = yield* PartnerStore.PartnerStore
          const seen = [yield* store.changes]
          yield* PartnerAdministration.addPartner({ partner_id: "partner-a", name: "A" }, key("abab0001"))
          seen.push(yield* store.changes)
          yield* PartnerAdministration.addSubscriptionKey("partner-a", key("abab0002"))
          seen.push(yield* store.changes)
          yield* PartnerAdministration.revokeSubscriptionKey("partner-a", "abab0001")
          seen.push(yield* store.changes)
          yield* PartnerAdministration.suspendPartner("partner-a")
          seen.push(yield* store.changes)
          yield* PartnerAdministration.setPartnerProducts("partner-a", { products: ["leasing"], known: ["leasing"] })
          seen.push(yield* store.changes)
          return { seen }
        })
      )
      // never the same value across a write (a store that cannot tell may move it on reads too)
      expect(new Set(outcome.seen).size).toBe(outcome.seen.length)
    })

    it("stores a sandbox key as one, and a production key without an environment", async () => {
      const outcome = await run(
        Effect.gen(function* () {
          const store = yield* PartnerStore.PartnerStore
          yield* PartnerAdministration.addPartner({ partner_id: "partner-a", name: "A" }, key("5a5a0001"))
          yield* PartnerAdministration.addSubscriptionKey("partner-a", key("5a5a0002"), { sandbox: true })
          return {
            production: Option.getOrThrow(yield* store.findSubscriptionKey("5a5a0001")),
            sandbox: Option.getOrThrow(yield* store.findSubscriptionKey("5a5a0002")),
            listed: yield* store.listSubscriptionKeys("partner-a")
          }
        })
      )
      expect("environment" in outcome.production).toBe(false)
      expect(outcome.sandbox).toMatchObject({ key_prefix: "5a5a0002", environment: "sandbox", revoked_at: null })
      expect(outcome.listed.map((record) => record.environment ?? "production")).toEqual(["production", "sandbox"])
    })

    it("revokes only the named partner's keys, by prefix", async () => {
      const outcome = await run(
        Effect.gen(function* () {
          yield* PartnerAdministration.addPartner({ partner_id: "partner-a", name: "A" }, key("dddd0001"))
          yield* PartnerAdministration.addPartner({ partner_id: "partner-b", name: "B" }, key("dddd0002"))
          const othersKey = yield* Effect.flip(PartnerAdministration.revokeSubscriptionKey("partner-a", "dddd0002"))
          const unknownPartner = yield* Effect.flip(PartnerAdministration.revokeSubscriptionKey("partner-z", "dddd"))
          const keys = yield* Effect.flatMap(PartnerStore.PartnerStore, (store) =>
            store.listSubscriptionKeys("partner-b")
          )
          return { othersKey, unknownPartner, keys }
        })
      )
      expect(outcome.othersKey).toMatchObject({ _tag: "SubscriptionKeyNotFound" })
      expect(outcome.unknownPartner).toMatchObject({ _tag: "PartnerNotFound" })
      expect(outcome.keys).toEqual([expect.objectContaining({ key_prefix: "dddd0002", revoked_at: null })])
    })

    it("answers PartnerNotFound for keys of, suspension of and the products of an unknown partner", async () => {
      const outcome = await run(
        Effect.all([
          Effect.flip(PartnerAdministration.addSubscriptionKey("nobody", key("eeee0001"))),
          Effect.flip(PartnerAdministration.suspendPartner("nobody")),
          Effect.flip(PartnerAdministration.setPartnerProducts("nobody", undefined))
        ])
      )
      expect(outcome.map((error) => error._tag)).toEqual(["PartnerNotFound", "PartnerNotFound", "PartnerNotFound"])
    })

    it("stores the products a partner may sell, changes them, and lets it sell every product again", async () => {
      const known = ["leasing", "standalone", "fleet"]
      const outcome = await run(
        Effect.gen(function* () {
          const store = yield* PartnerStore.PartnerStore
          const added = yield* PartnerAdministration.addPartner(
            { partner_id: "partner-a", name: "A" },
            key("f0f00001"),
            {
              products: ["standalone", "leasing", "standalone"],
              known
            }
          )
          yield* PartnerAdministration.addPartner({ partner_id: "partner-b", name: "B" }, key("f0f00002"))
          const found = yield* store.findPartner("partner-a")
          const changed = yield* PartnerAdministration.setPartnerProducts("partner-a", { products: ["fleet"], known })
          const listed = yield* PartnerAdministration.listPartners
          const none = yield* PartnerAdministration.setPartnerProducts("partner-b", { products: [], known })
          const every = yield* PartnerAdministration.setPartnerProducts("partner-a", undefined)
          return { added, found, changed, listed, none, every, again: yield* store.findPartner("partner-a") }
        })
      )
      expect(outcome.added.products).toEqual(["standalone", "leasing"])
      expect(Option.getOrThrow(outcome.found).products).toEqual(["standalone", "leasing"])
      expect(outcome.changed.products).toEqual(["fleet"])
      expect(outcome.listed.map((partner) => partner.products)).toEqual([["fleet"], undefined])
      expect("products" in outcome.listed[1]!).toBe(false)
      expect(outcome.none.products).toEqual([])
      expect("products" in outcome.every).toBe(false)
      expect("products" in Option.getOrThrow(outcome.again)).toBe(false)
    })

    it("refuses a product the catalogue does not have, naming it, and changes nothing", async () => {
      const known = ["leasing", "standalone"]
      const outcome = await run(
        Effect.gen(function* () {
          const adding = yield* Effect.flip(
            PartnerAdministration.addPartner({ partner_id: "partner-a", name: "A" }, key("f1f10001"), {
              products: ["leasing", "yacht"],
              known
            })
          )
          yield* PartnerAdministration.addPartner({ partner_id: "partner-b", name: "B" }, key("f1f10002"), {
            products: ["leasing"],
            known
          })
          const setting = yield* Effect.flip(
            PartnerAdministration.setPartnerProducts("partner-b", { products: ["glider"], known })
          )
          return { adding, setting, listed: yield* PartnerAdministration.listPartners }
        })
      )
      expect(outcome.adding).toMatchObject({
        _tag: "ConstraintViolation",
        violations: [{ field: "products", message: expect.stringContaining('"yacht" is not a product') }]
      })
      expect(outcome.setting).toMatchObject({
        _tag: "ConstraintViolation",
        violations: [{ field: "products", message: expect.stringContaining('"glider"') }]
      })
      expect(outcome.listed.map((partner) => [partner.partner_id, partner.products])).toEqual([
        ["partner-b", ["leasing"]]
      ])
    })
  })
}
