/**
 * Administering partners and their subscription keys: the programs behind
 * `kasko partners …` and `kasko keys …`. Key material is made by the caller
 * (it needs randomness and hashing); the core records prefixes and hashes.
 * @module
 */
import { Clock, Effect, Option, Result, Schema, Struct } from "effect"
import { decodeAll } from "../input/Decoding.js"
import { constraintViolationOf, type ConstraintViolation, type StorageUnavailable } from "../Errors.js"
import { Partner, type SubscriptionKeyRecord } from "./Partner.js"
import { checkedProducts } from "./PartnerProducts.js"
import { PartnerStore } from "../ports/PartnerStore.js"

/** The partner id is taken. */
class PartnerAlreadyExists extends Schema.TaggedError<PartnerAlreadyExists>()("PartnerAlreadyExists", {
  partner_id: Schema.String
}) {}

/** No partner has that id. */
class PartnerNotFound extends Schema.TaggedError<PartnerNotFound>()("PartnerNotFound", {
  partner_id: Schema.String
}) {}

/** The partner has no unrevoked key with that prefix. */
class SubscriptionKeyNotFound extends Schema.TaggedError<SubscriptionKeyNotFound>()("SubscriptionKeyNotFound", {
  partner_id: Schema.String,
  key_prefix: Schema.String
}) {}

const NewPartner = Partner.mapFields(Struct.omit(["status", "created_at", "products"]))

/** A generated subscription key: what to store, and the key to show once. */
interface IssuedKey {
  readonly key_prefix: string
  readonly key_hash: string
}

const requirePartner = (partnerId: string) =>
  Effect.flatMap(PartnerStore, (store) => store.findPartner(partnerId)).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail(new PartnerNotFound({ partner_id: partnerId })),
        onSome: Effect.succeed
      })
    )
  )

/** The products a partner is given, and the names of the catalogue's products they must be among. */
interface ProductsGiven {
  readonly products: ReadonlyArray<string>
  readonly known: ReadonlyArray<string>
}

/**
 * Adds an active partner with its first subscription key. Given `products` (of the catalogue's `known` ones), it
 * may sell only those; without, every product.
 */
export const addPartner = (
  input: { readonly partner_id: string; readonly name: string; readonly cvr_number?: string },
  firstKey: IssuedKey,
  given?: ProductsGiven
): Effect.Effect<Partner, ConstraintViolation | PartnerAlreadyExists | StorageUnavailable, PartnerStore> =>
  Effect.gen(function* () {
    const decoded = decodeAll(NewPartner, input)
    const checked = given === undefined ? undefined : checkedProducts(given.products, given.known)
    const violations = [
      ...(Result.isFailure(decoded) ? decoded.failure : []),
      ...(checked !== undefined && "violation" in checked ? checked.violation.violations : [])
    ]
    if (violations.length > 0 || Result.isFailure(decoded)) return yield* constraintViolationOf(violations)!
    const now = yield* Clock.currentTimeMillis
    const partner: Partner = {
      ...decoded.success,
      ...(checked !== undefined && "products" in checked ? { products: checked.products } : {}),
      status: "active",
      created_at: now
    }
    const store = yield* PartnerStore
    if (!(yield* store.insertPartner(partner)))
      return yield* new PartnerAlreadyExists({ partner_id: partner.partner_id })
    yield* store.insertSubscriptionKey({
      ...firstKey,
      partner_id: partner.partner_id,
      created_at: now,
      revoked_at: null
    })
    return partner
  })

/** Every partner, by id: what `kasko partners list` prints. */
export const listPartners: Effect.Effect<ReadonlyArray<Partner>, StorageUnavailable, PartnerStore> = Effect.flatMap(
  PartnerStore,
  (store) => store.listPartners
)

/** Suspends a partner: its credentials stop working at once; its quotes stay. */
export const suspendPartner = (
  partnerId: string
): Effect.Effect<Partner, PartnerNotFound | StorageUnavailable, PartnerStore> =>
  Effect.flatMap(PartnerStore, (store) => store.setPartnerStatus(partnerId, "suspended")).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail(new PartnerNotFound({ partner_id: partnerId })),
        onSome: Effect.succeed
      })
    )
  )

/**
 * Sets the products a partner may sell (of the catalogue's `known` ones), or, given none, lets it sell every
 * product. Its next request obeys it: what remembers credentials sees the change.
 */
export const setPartnerProducts = (
  partnerId: string,
  given: ProductsGiven | undefined
): Effect.Effect<Partner, ConstraintViolation | PartnerNotFound | StorageUnavailable, PartnerStore> =>
  Effect.gen(function* () {
    const checked = given === undefined ? undefined : checkedProducts(given.products, given.known)
    if (checked !== undefined && "violation" in checked) return yield* checked.violation
    const store = yield* PartnerStore
    const updated = yield* store.setPartnerProducts(partnerId, checked?.products)
    if (Option.isNone(updated)) return yield* new PartnerNotFound({ partner_id: partnerId })
    return updated.value
  })

/** Adds another subscription key to a partner (for rotation); with `sandbox`, a key that works only in its sandbox. */
export const addSubscriptionKey = (
  partnerId: string,
  key: IssuedKey,
  options?: { readonly sandbox?: boolean }
): Effect.Effect<SubscriptionKeyRecord, PartnerNotFound | StorageUnavailable, PartnerStore> =>
  Effect.gen(function* () {
    yield* requirePartner(partnerId)
    const record: SubscriptionKeyRecord = {
      key_prefix: key.key_prefix,
      key_hash: key.key_hash,
      partner_id: partnerId,
      created_at: yield* Clock.currentTimeMillis,
      revoked_at: null,
      ...(options?.sandbox === true ? { environment: "sandbox" as const } : {})
    }
    yield* Effect.flatMap(PartnerStore, (store) => store.insertSubscriptionKey(record))
    return record
  })

/** Revokes the partner's keys whose prefix starts with `keyPrefix`; answers how many. */
export const revokeSubscriptionKey = (
  partnerId: string,
  keyPrefix: string
): Effect.Effect<number, PartnerNotFound | SubscriptionKeyNotFound | StorageUnavailable, PartnerStore> =>
  Effect.gen(function* () {
    yield* requirePartner(partnerId)
    const now = yield* Clock.currentTimeMillis
    const revoked = yield* Effect.flatMap(PartnerStore, (store) =>
      store.revokeSubscriptionKeys(partnerId, keyPrefix, now)
    )
    if (revoked === 0) return yield* new SubscriptionKeyNotFound({ partner_id: partnerId, key_prefix: keyPrefix })
    return revoked
  })
