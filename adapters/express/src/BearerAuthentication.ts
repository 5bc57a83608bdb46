/**
 * Spec §5: `Authorization: Bearer <token>` plus `ocp-apim-subscription-key`.
 * The token names the partner and carries scopes; the key must belong to the
 * same, active partner. Every failure is a 401 problem that says what to fix
 * — in its `detail` and in WWW-Authenticate's `error_description` (RFC 6750) —
 * without telling a caller anything about a subscription key it does not hold:
 * an unknown, revoked or another partner's key and a suspended partner all get
 * one identical answer. A missing scope is 401, not RFC 6750's 403, because the
 * specification says so.
 */
import type { Request } from "express"
import type { Authenticate, Principal } from "./Authentication.js"
import type { Scope } from "./Operations.js"
import { PROBLEMS, type ProblemAnswer } from "./Problem.js"
import { RETRY_AFTER_SECONDS } from "./CoreErrorProblems.js"

/** What a verified token says. */
export interface VerifiedToken {
  readonly partnerId: string
  readonly scopes: ReadonlySet<string>
}

/** Why a token was refused, in words safe to show its bearer ("the token has expired"). */
export interface RejectedToken {
  readonly rejected: string
}

export interface CredentialChecks {
  /** The token's partner and scopes, or why it does not verify. Rejects when the keys to verify it cannot be had. */
  readonly verifyToken: (token: string) => Promise<VerifiedToken | RejectedToken>
  /** The active partner a subscription key belongs to and the key's public id, or undefined. Rejects when storage is unavailable. */
  readonly partnerOfSubscriptionKey: (key: string) => Promise<{ readonly partnerId: string; readonly keyId: string } | undefined>
}

export const SUBSCRIPTION_KEY_HEADER = "ocp-apim-subscription-key"
const REALM = 'Bearer realm="kasko"'

// RFC 6750 §3: error_description is printable ASCII without `"` and `\`
const quotable = (text: string) => text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "?")

const unauthorized = (detail: string, error?: { readonly code: string; readonly description: string; readonly scope?: Scope }): ProblemAnswer => ({
  problem: { ...PROBLEMS.unauthorized, detail },
  headers: {
    "WWW-Authenticate":
      error === undefined
        ? REALM
        : `${REALM}, error="${error.code}", error_description="${quotable(error.description)}"${error.scope === undefined ? "" : `, scope="${error.scope}"`}`
  }
})

export const NO_CREDENTIALS = unauthorized("Send an access token in the Authorization header (Authorization: Bearer <token>) and the partner's subscription key in the ocp-apim-subscription-key header.")
export const MALFORMED_AUTHORIZATION = unauthorized("The Authorization header must read Bearer <token>.", {
  code: "invalid_request",
  description: "the Authorization header must read Bearer <token>"
})
export const MISSING_SUBSCRIPTION_KEY = unauthorized("Send the partner's subscription key in the ocp-apim-subscription-key header.", {
  code: "invalid_request",
  description: "the ocp-apim-subscription-key header is missing"
})
export const INVALID_SUBSCRIPTION_KEY = unauthorized("The ocp-apim-subscription-key is not valid for this access token.", {
  code: "invalid_token",
  description: "the subscription key is not valid for this token"
})

export const invalidToken = (why: string) =>
  unauthorized(`The access token was refused: ${why}.`, { code: "invalid_token", description: why })

export const insufficientScope = (scope: Scope) =>
  unauthorized(`The access token lacks the scope ${scope} this operation needs.`, {
    code: "insufficient_scope",
    description: `the token lacks the scope ${scope}`,
    scope
  })

const UNAVAILABLE: ProblemAnswer = { problem: PROBLEMS.serviceUnavailable, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } }

// RFC 9110 §11.1: the scheme is case-insensitive; RFC 6750 §2.1 gives the token's characters
const BEARER = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i

const bearerToken = (request: Request): string | undefined | null => {
  const header = request.get("authorization")
  if (header === undefined) return undefined
  return BEARER.exec(header)?.[1] ?? null
}

const isRejected = (outcome: VerifiedToken | RejectedToken): outcome is RejectedToken => "rejected" in outcome

/** Authentication by bearer token and subscription key. Tokens in the query string are ignored. */
export const bearerAuthentication =
  (checks: CredentialChecks): Authenticate =>
  async (request, operation): Promise<Principal | ProblemAnswer> => {
    if (operation.scope === undefined) return { partnerId: "", rateLimitKey: "" }
    const token = bearerToken(request)
    if (token === undefined) return NO_CREDENTIALS
    if (token === null) return MALFORMED_AUTHORIZATION
    let verified: VerifiedToken | RejectedToken
    try {
      verified = await checks.verifyToken(token)
    } catch {
      return UNAVAILABLE
    }
    if (isRejected(verified)) return invalidToken(verified.rejected)
    const key = request.get(SUBSCRIPTION_KEY_HEADER)
    if (key === undefined || key === "") return MISSING_SUBSCRIPTION_KEY
    if (key.length > 200) return INVALID_SUBSCRIPTION_KEY
    let keyOwner: { readonly partnerId: string; readonly keyId: string } | undefined
    try {
      keyOwner = await checks.partnerOfSubscriptionKey(key)
    } catch {
      return UNAVAILABLE
    }
    if (keyOwner === undefined || keyOwner.partnerId !== verified.partnerId) return INVALID_SUBSCRIPTION_KEY
    if (!verified.scopes.has(operation.scope)) return insufficientScope(operation.scope)
    return { partnerId: verified.partnerId, rateLimitKey: keyOwner.keyId }
  }
