/**
 * Spec §5: `Authorization: Bearer <token>` plus `ocp-apim-subscription-key`.
 * The token names the partner and carries scopes; the key must belong to the
 * same, active partner. Every failure is the same 401 problem — only the
 * WWW-Authenticate header (RFC 6750) says more: no error code when no
 * credentials were sent, `invalid_token` for anything wrong with them, and
 * `insufficient_scope` with the scope an operation needs. A missing scope is
 * 401, not RFC 6750's 403, because the specification says so.
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

export interface CredentialChecks {
  /** The token's partner and scopes, or undefined for any token that does not verify. */
  readonly verifyToken: (token: string) => Promise<VerifiedToken | undefined>
  /** The active partner a subscription key belongs to, or undefined. Rejects when storage is unavailable. */
  readonly partnerOfSubscriptionKey: (key: string) => Promise<string | undefined>
}

export const SUBSCRIPTION_KEY_HEADER = "ocp-apim-subscription-key"
const REALM = 'Bearer realm="kasko"'

const unauthorized = (challenge: string): ProblemAnswer => ({
  problem: PROBLEMS.unauthorized,
  headers: { "WWW-Authenticate": challenge }
})

export const NO_CREDENTIALS = unauthorized(REALM)
export const INVALID_TOKEN = unauthorized(`${REALM}, error="invalid_token"`)
export const insufficientScope = (scope: Scope) => unauthorized(`${REALM}, error="insufficient_scope", scope="${scope}"`)

const bearerToken = (request: Request): string | undefined | null => {
  const header = request.get("authorization")
  if (header === undefined) return undefined
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header)
  return match === null ? null : match[1]!
}

/** Authentication by bearer token and subscription key. Tokens in the query string are ignored. */
export const bearerAuthentication =
  (checks: CredentialChecks): Authenticate =>
  async (request, operation): Promise<Principal | ProblemAnswer> => {
    if (operation.scope === undefined) return { partnerId: "" }
    const token = bearerToken(request)
    if (token === undefined) return NO_CREDENTIALS
    if (token === null) return INVALID_TOKEN
    const verified = await checks.verifyToken(token)
    if (verified === undefined) return INVALID_TOKEN
    const key = request.get(SUBSCRIPTION_KEY_HEADER)
    if (key === undefined || key.length > 200) return INVALID_TOKEN
    let keyPartner: string | undefined
    try {
      keyPartner = await checks.partnerOfSubscriptionKey(key)
    } catch {
      return { problem: PROBLEMS.serviceUnavailable, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } }
    }
    if (keyPartner === undefined || keyPartner !== verified.partnerId) return INVALID_TOKEN
    if (!verified.scopes.has(operation.scope)) return insufficientScope(operation.scope)
    return { partnerId: verified.partnerId }
  }
