/**
 * PartnerStore in memory: for tests, embedding and demos.
 * @module
 */
import type { Partner, SubscriptionKeyRecord } from "@kasko/core"
import { PartnerStore } from "@kasko/core"
import { Effect, Layer, Option } from "effect"

type PartnerRecord = Partner
type KeyRecord = SubscriptionKeyRecord

/** A fresh, empty PartnerStore in memory, for a test or an embedder that provides the service itself. */
export const makePartnerStore = (): PartnerStore.PartnerStore["Service"] => {
  const partners = new Map<string, PartnerRecord>()
  const keys = new Map<string, KeyRecord>()
  // every write moves it: nothing else writes to this store
  let writes = 0
  const changing = <A>(write: () => A): A => {
    writes++
    return write()
  }
  return {
    insertPartner: (partner) =>
      Effect.sync(() =>
        changing(() => {
          if (partners.has(partner.partner_id)) return false
          partners.set(partner.partner_id, { ...partner })
          return true
        })
      ),
    findPartner: (partnerId) =>
      Effect.sync(() => Option.map(Option.fromNullishOr(partners.get(partnerId)), (found) => ({ ...found }))),
    listPartners: Effect.sync(() =>
      [...partners.values()].sort((a, b) => a.partner_id.localeCompare(b.partner_id)).map((found) => ({ ...found }))
    ),
    setPartnerStatus: (partnerId, status) =>
      Effect.sync(() =>
        changing(() => {
          const found = partners.get(partnerId)
          if (found === undefined) return Option.none()
          partners.set(partnerId, { ...found, status })
          return Option.some({ ...found, status })
        })
      ),
    setPartnerProducts: (partnerId, products) =>
      Effect.sync(() =>
        changing(() => {
          const found = partners.get(partnerId)
          if (found === undefined) return Option.none()
          const { products: _previous, ...rest } = found
          const updated: PartnerRecord = products === undefined ? rest : { ...rest, products: [...products] }
          partners.set(partnerId, updated)
          return Option.some({ ...updated })
        })
      ),
    insertSubscriptionKey: (key) =>
      Effect.sync(() =>
        changing(() => {
          if (keys.has(key.key_prefix)) throw new Error(`subscription key prefix ${key.key_prefix} is already stored`)
          keys.set(key.key_prefix, { ...key })
        })
      ),
    findSubscriptionKey: (keyPrefix) =>
      Effect.sync(() => Option.map(Option.fromNullishOr(keys.get(keyPrefix)), (found) => ({ ...found }))),
    listSubscriptionKeys: (partnerId) =>
      Effect.sync(() => [...keys.values()].filter((key) => key.partner_id === partnerId).map((key) => ({ ...key }))),
    revokeSubscriptionKeys: (partnerId, keyPrefix, revokedAt) =>
      Effect.sync(() =>
        changing(() => {
          let revoked = 0
          for (const [prefix, key] of keys) {
            if (key.partner_id !== partnerId || key.revoked_at !== null || !prefix.startsWith(keyPrefix)) continue
            keys.set(prefix, { ...key, revoked_at: revokedAt })
            revoked++
          }
          return revoked
        })
      ),
    changes: Effect.sync(() => writes)
  }
}

/**
 * The in-memory PartnerStore as a Layer; each build is a new, empty store. Effect 4 builds a layer once per
 * run, also when provided again inside it: for a separate store there, provide `Layer.fresh(layer)`.
 */
export const layer: Layer.Layer<PartnerStore.PartnerStore> = Layer.sync(PartnerStore.PartnerStore, makePartnerStore)
