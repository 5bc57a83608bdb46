/**
 * Who is calling (spec §5), in one place: the Authentication port's adapter.
 * `Authorization: Bearer <token>` is verified with jose (TokenVerifier: the
 * embedded key pair or the identity provider's key set, verified tokens
 * remembered until they expire); `ocp-apim-subscription-key` is looked up by
 * its public prefix in the partner store and compared with the stored SHA-256
 * in constant time (SubscriptionKeys). A key that checked out is remembered by
 * the whole key string until the partner store reports a change — a key
 * revoked or a partner suspended, by the `kasko` command or anyone — so a
 * partner's every request costs no hashing and no lookup, and a revocation
 * still takes effect on the next request.
 * @module
 */
import { Authentication, AuthenticationRefused, IdentityProviderUnavailable, PartnerStore } from "@kasko/core"
import { Sandbox } from "@kasko/core/administration"
import { Effect, Layer, Option } from "effect"
import type { CryptoKey, JWTVerifyGetKey } from "jose"
import { loadOrCreateSigningKey } from "./SigningKey.js"
import { matchesStoredHash, prefixOf } from "./SubscriptionKeys.js"
import { makeTokenVerifier, remoteKeySet, type TokenRules, type VerifiedToken } from "./Tokens.js"

type Scope = Authentication.Scope

/** Where the keys that verify tokens come from. */
export type TokenKeys =
  | { readonly kind: "embedded"; readonly dataDirectory: string }
  | { readonly kind: "jwks"; readonly url: string; readonly cacheSeconds: number; readonly cooldownSeconds: number }

// RFC 9110 §11.1: the scheme is case-insensitive; RFC 6750 §2.1 gives the token's characters
const BEARER = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i
const LONGEST_KEY = 200
const REMEMBERED_KEYS_MAX = 10_000

const NO_CREDENTIALS = new AuthenticationRefused({
  reason: "no_credentials",
  description:
    "send an access token in the Authorization header (Authorization: Bearer <token>) and the partner's subscription key in the ocp-apim-subscription-key header"
})
const MALFORMED_AUTHORIZATION = new AuthenticationRefused({
  reason: "malformed_authorization",
  description: "the Authorization header must read Bearer <token>"
})
const MISSING_SUBSCRIPTION_KEY = new AuthenticationRefused({
  reason: "missing_subscription_key",
  description: "the ocp-apim-subscription-key header is missing"
})
// one answer for every key not valid for the token: unknown, revoked, another partner's, a suspended partner's
const INVALID_SUBSCRIPTION_KEY = new AuthenticationRefused({
  reason: "invalid_subscription_key",
  description: "the subscription key is not valid for this token"
})
const invalidToken = (why: string) => new AuthenticationRefused({ reason: "invalid_token", description: why })
const insufficientScope = (scope: Scope) =>
  new AuthenticationRefused({ reason: "insufficient_scope", description: `the token lacks the scope ${scope}`, scope })

interface KeyOwner {
  readonly partnerId: string
  readonly keyPrefix: string
  readonly products: ReadonlyArray<string> | undefined
  readonly sandbox: boolean
}

/**
 * The principal a key's owner acts as: the partner, or — for a sandbox key — the partner's sandbox, counted under
 * a rate limit key of its own.
 */
const principalOf = (owner: KeyOwner): Authentication.Principal => ({
  partnerId: owner.sandbox ? Sandbox.sandboxOwnerOf(owner.partnerId) : owner.partnerId,
  rateLimitKey: owner.sandbox ? `sandbox:${owner.keyPrefix}` : owner.keyPrefix,
  ...(owner.products === undefined ? {} : { products: owner.products }),
  ...(owner.sandbox ? { environment: "sandbox" as const } : {})
})

/** The Authentication service over a key or key set for tokens and the partner store for subscription keys. */
export const make = (
  keys: CryptoKey | JWTVerifyGetKey,
  rules: TokenRules
): Effect.Effect<Authentication.Authentication["Service"], never, PartnerStore.PartnerStore> =>
  Effect.map(PartnerStore.PartnerStore, (store) => {
    const verifier = makeTokenVerifier(keys, rules)
    const knownKeys = new Map<string, { readonly owner: KeyOwner; readonly changes: unknown }>()

    const verifyToken = (token: string) => {
      const remembered = verifier.remembered(token)
      if (remembered !== undefined) return Effect.succeed(remembered)
      return Effect.tryPromise({
        try: () => verifier.verify(token),
        catch: (error) => new IdentityProviderUnavailable({ reason: `the key set cannot be fetched: ${String(error)}` })
      }).pipe(
        Effect.flatMap((outcome) =>
          "rejected" in outcome ? Effect.fail(invalidToken(outcome.rejected)) : Effect.succeed(outcome)
        )
      )
    }

    /** Who holds the key, looked up and checked by hash when it is not remembered since the last change. */
    const ownerOf = (key: string) =>
      Effect.flatMap(store.changes, (changes) => {
        const known = knownKeys.get(key)
        if (known !== undefined && known.changes === changes) return Effect.succeed(known.owner)
        const keyPrefix = prefixOf(key)
        if (keyPrefix === undefined) return Effect.fail(INVALID_SUBSCRIPTION_KEY)
        return Effect.gen(function* () {
          const record = yield* store.findSubscriptionKey(keyPrefix)
          if (
            Option.isNone(record) ||
            record.value.revoked_at !== null ||
            !matchesStoredHash(key, record.value.key_hash)
          ) {
            return yield* INVALID_SUBSCRIPTION_KEY
          }
          const partner = yield* store.findPartner(record.value.partner_id)
          if (Option.isNone(partner) || partner.value.status !== "active") return yield* INVALID_SUBSCRIPTION_KEY
          const owner = {
            partnerId: partner.value.partner_id,
            keyPrefix,
            products: partner.value.products,
            sandbox: record.value.environment === "sandbox"
          }
          if (knownKeys.size >= REMEMBERED_KEYS_MAX) knownKeys.clear()
          knownKeys.set(key, { owner, changes })
          return owner
        })
      })

    const admit = (token: VerifiedToken, key: string | undefined, scope: Scope) => {
      if (key === undefined || key === "") return Effect.fail(MISSING_SUBSCRIPTION_KEY)
      if (key.length > LONGEST_KEY) return Effect.fail(INVALID_SUBSCRIPTION_KEY)
      return Effect.flatMap(ownerOf(key), (owner) => {
        if (owner.partnerId !== token.partnerId) return Effect.fail(INVALID_SUBSCRIPTION_KEY)
        if (!token.scopes.has(scope)) return Effect.fail(insufficientScope(scope))
        return Effect.succeed(principalOf(owner))
      })
    }

    return {
      authenticate: (credentials, scope) => {
        if (credentials.authorization === undefined) return Effect.fail(NO_CREDENTIALS)
        const token = BEARER.exec(credentials.authorization)?.[1]
        if (token === undefined) return Effect.fail(MALFORMED_AUTHORIZATION)
        return Effect.flatMap(verifyToken(token), (verified) => admit(verified, credentials.subscriptionKey, scope))
      }
    }
  })

/** Authentication with tokens verified by the embedded key pair of a data directory, or by an identity provider's JWKS. */
export const layer = (
  keys: TokenKeys,
  rules: TokenRules
): Layer.Layer<Authentication.Authentication, Error, PartnerStore.PartnerStore> =>
  Layer.effect(
    Authentication.Authentication,
    keys.kind === "jwks"
      ? make(remoteKeySet(keys.url, keys.cacheSeconds, keys.cooldownSeconds), rules)
      : Effect.tryPromise({
          try: () => loadOrCreateSigningKey(keys.dataDirectory),
          catch: (error) => error as Error
        }).pipe(Effect.flatMap((signingKey) => make(signingKey.publicKey, rules)))
  )
