/**
 * The service's credential checks: tokens verified with the embedded key or
 * the identity provider's JWKS, subscription keys looked up by prefix and
 * compared by hash in the partner store.
 */
import { PartnerAdministration, type PartnerStore } from "@kasko/core"
import { runEffect, type CredentialChecks } from "@kasko/express"
import { Cause, Exit, Option, type ManagedRuntime } from "effect"
import { loadOrCreateSigningKey } from "./SigningKey.js"
import { tokenRulesOf, type ServiceConfig } from "./ServiceConfig.js"
import { matchesStoredHash, prefixOf } from "./SubscriptionKeys.js"
import { makeTokenVerifier, remoteKeySet } from "./Tokens.js"

export const makeCredentialChecks = async (
  config: ServiceConfig,
  runtime: ManagedRuntime.ManagedRuntime<PartnerStore.PartnerStore, unknown>
): Promise<CredentialChecks> => {
  const expected = tokenRulesOf(config)
  const verifyToken = Option.isSome(config.jwksUrl)
    ? makeTokenVerifier(remoteKeySet(config.jwksUrl.value.toString(), config.jwksCacheSeconds, config.jwksCooldownSeconds), expected)
    : makeTokenVerifier((await loadOrCreateSigningKey(config.dataDirectory)).publicKey, expected)
  return {
    verifyToken,
    partnerOfSubscriptionKey: async (key) => {
      const prefix = prefixOf(key)
      if (prefix === undefined) return undefined
      const exit = await runEffect(runtime, PartnerAdministration.partnerOfSubscriptionKey(prefix, (storedHash) => matchesStoredHash(key, storedHash)))
      if (Exit.isFailure(exit)) throw Cause.squash(exit.cause)
      return Option.match(exit.value, { onNone: () => undefined, onSome: (partner) => ({ partnerId: partner.partner_id, keyId: prefix }) })
    }
  }
}
