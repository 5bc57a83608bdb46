/**
 * The service's credential checks: tokens verified with the embedded key or
 * the identity provider's JWKS, subscription keys looked up by prefix and
 * compared by hash in the partner store.
 */
import { PartnerAdministration, type PartnerStore } from "@kasko/core"
import type { CredentialChecks } from "@kasko/express"
import { Option, type ManagedRuntime } from "effect"
import { loadOrCreateSigningKey } from "./SigningKey.js"
import { tokenAudienceOf, type ServiceConfig } from "./ServiceConfig.js"
import { matchesStoredHash, prefixOf } from "./SubscriptionKeys.js"
import { makeTokenVerifier, remoteKeySet } from "./Tokens.js"

export const makeCredentialChecks = async (
  config: ServiceConfig,
  runtime: ManagedRuntime.ManagedRuntime<PartnerStore.PartnerStore, unknown>
): Promise<CredentialChecks> => {
  const expected = tokenAudienceOf(config)
  const verifyToken = Option.isSome(config.jwksUrl)
    ? makeTokenVerifier(remoteKeySet(config.jwksUrl.value.toString(), config.jwksCacheSeconds, config.jwksCooldownSeconds), expected)
    : makeTokenVerifier((await loadOrCreateSigningKey(config.dataDirectory)).publicKey, expected)
  return {
    verifyToken,
    partnerOfSubscriptionKey: async (key) => {
      const prefix = prefixOf(key)
      if (prefix === undefined) return undefined
      const partner = await runtime.runPromise(
        PartnerAdministration.partnerOfSubscriptionKey(prefix, (storedHash) => matchesStoredHash(key, storedHash))
      )
      return Option.getOrUndefined(partner)?.partner_id
    }
  }
}
