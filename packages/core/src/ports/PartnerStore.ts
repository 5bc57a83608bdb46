/**
 * The partner storage port: partners and their subscription keys.
 * @module
 */
import { Context, type Effect, type Option } from "effect"
import type { StorageUnavailable } from "../Errors.js"
import type { Partner, PartnerStatus, SubscriptionKeyRecord } from "../partner/Partner.js"

/**
 * The PartnerStore port: partners, their subscription keys, and `changes` for the caches that must forget a
 * revoked key. The memory, SQLite and PostgreSQL adapters provide it.
 */
export class PartnerStore extends Context.Service<
  PartnerStore,
  {
    /** Stores a new partner; false when the id is taken (nothing changes then). */
    readonly insertPartner: (partner: Partner) => Effect.Effect<boolean, StorageUnavailable>
    readonly findPartner: (partnerId: string) => Effect.Effect<Option.Option<Partner>, StorageUnavailable>
    /** Every partner, by id. */
    readonly listPartners: Effect.Effect<ReadonlyArray<Partner>, StorageUnavailable>
    /** Sets a partner's status; none when there is no such partner. */
    readonly setPartnerStatus: (
      partnerId: string,
      status: PartnerStatus
    ) => Effect.Effect<Option.Option<Partner>, StorageUnavailable>
    /** Sets the products a partner may sell (undefined: every product); none when there is no such partner. */
    readonly setPartnerProducts: (
      partnerId: string,
      products: ReadonlyArray<string> | undefined
    ) => Effect.Effect<Option.Option<Partner>, StorageUnavailable>
    /** Stores a key of an existing partner. */
    readonly insertSubscriptionKey: (key: SubscriptionKeyRecord) => Effect.Effect<void, StorageUnavailable>
    /** The key with that prefix, revoked or not. */
    readonly findSubscriptionKey: (
      keyPrefix: string
    ) => Effect.Effect<Option.Option<SubscriptionKeyRecord>, StorageUnavailable>
    readonly listSubscriptionKeys: (
      partnerId: string
    ) => Effect.Effect<ReadonlyArray<SubscriptionKeyRecord>, StorageUnavailable>
    /** Revokes the partner's unrevoked keys whose prefix starts with `keyPrefix`; answers how many. */
    readonly revokeSubscriptionKeys: (
      partnerId: string,
      keyPrefix: string,
      revokedAt: number
    ) => Effect.Effect<number, StorageUnavailable>
    /**
     * A value that changes whenever partners or keys may have changed since it
     * was last read — through this store or any other (the `kasko` command,
     * another instance). What remembers lookups compares it on every use.
     * A store that cannot tell answers a new value every time.
     */
    readonly changes: Effect.Effect<unknown, StorageUnavailable>
  }
>()("@kasko/core/PartnerStore") {}
