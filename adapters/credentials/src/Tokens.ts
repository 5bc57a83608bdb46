/**
 * Access tokens: issued by `kasko tokens issue` with the embedded key, or by
 * the insurer's identity provider (JWKS mode); verified with jose — signature,
 * algorithm, exp/nbf, issuer and audience. The partner is the `partner_id`
 * claim when present (a partner user's token), else the subject.
 * @module
 */
import {
  createRemoteJWKSet,
  errors,
  jwtVerify,
  SignJWT,
  type JWTPayload,
  type JWTVerifyGetKey,
  type CryptoKey
} from "jose"
import { randomUUID } from "node:crypto"
import { SIGNING_ALGORITHM, type SigningKey } from "./SigningKey.js"

/** What a verified token says. */
export interface VerifiedToken {
  readonly partnerId: string
  readonly scopes: ReadonlySet<string>
}

/** Why a token was refused, in words safe to show its bearer ("the token has expired"). */
export interface RejectedToken {
  readonly rejected: string
}

/** Asymmetric algorithms only: never `none`, never an HMAC keyed with a public key. */
const ACCEPTED_ALGORITHMS = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"]

/** Whom a token is from and for: the `iss` and `aud` claims a token is issued with and must carry to be accepted. */
export interface TokenAudience {
  readonly issuer: string
  readonly audience: string
}

/** What a token must satisfy besides its signature: issuer, audience, and a lifetime (exp − iat) no longer than this. */
export interface TokenRules extends TokenAudience {
  readonly maxLifetimeSeconds: number
}

/** What `issueToken` signs: the partner, the scopes it is granted, and how long the token lives. */
export interface TokenRequest extends TokenAudience {
  readonly partnerId: string
  readonly scopes: ReadonlyArray<string>
  readonly ttlSeconds: number
}

/** Signs a token for a partner with the embedded key. */
export const issueToken = (key: SigningKey, request: TokenRequest): Promise<string> =>
  new SignJWT({ scope: request.scopes.join(" ") })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: "JWT" })
    .setSubject(request.partnerId)
    .setIssuer(request.issuer)
    .setAudience(request.audience)
    .setIssuedAt()
    .setNotBefore("0s")
    .setExpirationTime(`${request.ttlSeconds}s`)
    .setJti(randomUUID())
    .sign(key.privateKey)

const scopesOf = (payload: JWTPayload): ReadonlySet<string> => {
  const scope = payload["scope"] ?? payload["scp"]
  if (typeof scope === "string") return new Set(scope.split(" ").filter((entry) => entry !== ""))
  if (Array.isArray(scope)) return new Set(scope.filter((entry): entry is string => typeof entry === "string"))
  return new Set()
}

const partnerOf = (payload: JWTPayload): string | undefined => {
  const claimed = payload["partner_id"]
  return typeof claimed === "string" ? claimed : payload.sub
}

const CACHED_TOKENS_MAX = 10_000
const CLOCK_TOLERANCE_SECONDS = 5

/** Verifies tokens, remembering the ones that verified. */
export interface TokenVerifier {
  /** The token's partner and scopes if it verified before and has not expired since: no signature check, no promise. */
  readonly remembered: (token: string) => VerifiedToken | undefined
  /** The token's partner and scopes, or why it does not verify. Rejects when the key set cannot be fetched. */
  readonly verify: (token: string) => Promise<VerifiedToken | RejectedToken>
}

/**
 * A verifier over a key or a key set. A token that verified is remembered
 * until its `exp`, keyed by the whole token string — signature included, so no
 * other string can hit it — sparing the signature check on a partner's every
 * request. Refusals are never remembered: a key set that learns a new key
 * accepts the token next time. Verification rejects when the key set cannot be
 * fetched (the service, not the token, is at fault).
 */
export const makeTokenVerifier = (key: CryptoKey | JWTVerifyGetKey, expected: TokenRules): TokenVerifier => {
  const verified = new Map<string, { readonly token: VerifiedToken; readonly expiresAtSeconds: number }>()
  const check = verifyToken(key, expected)
  const remembered = (token: string): VerifiedToken | undefined => {
    const entry = verified.get(token)
    if (entry === undefined) return undefined
    if (Date.now() / 1000 < entry.expiresAtSeconds + CLOCK_TOLERANCE_SECONDS) return entry.token
    verified.delete(token)
    return undefined
  }
  return {
    remembered,
    verify: async (token) => {
      const known = remembered(token)
      if (known !== undefined) return known
      const result = await check(token)
      if ("rejected" in result) return result
      if (verified.size >= CACHED_TOKENS_MAX) verified.clear()
      verified.set(token, result)
      return result.token
    }
  }
}

const CLAIM_PROBLEMS: Readonly<Record<string, string>> = {
  nbf: "the token is not valid yet",
  iss: "the token was issued by another issuer",
  aud: "the token is meant for another audience",
  iat: "the token's issue time lies in the future"
}

/**
 * The identity provider's key set could not be fetched or read: the service, not the token, is at fault (503).
 * Only the key set's own resolution throws it, so nothing a token says can make verification fail this way.
 */
class KeySetUnavailable extends Error {
  override readonly name = "KeySetUnavailable"
}

/**
 * A remote key set whose failures to produce a key set are told apart from a token naming a key it lacks:
 * jose throws a bare JOSEError, JWKSTimeout or JWKSInvalid for the first, and fetch a TypeError.
 */
const keySetResolver =
  (keySet: JWTVerifyGetKey): JWTVerifyGetKey =>
  async (header, token) => {
    try {
      return await keySet(header, token)
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error
      throw new KeySetUnavailable(error instanceof Error ? error.message : String(error))
    }
  }

/** Why jose refused a token, in words for its bearer; throws only when the key set was unavailable. */
const rejectionOf = (error: unknown): RejectedToken => {
  if (error instanceof KeySetUnavailable) throw error
  if (error instanceof errors.JWTExpired) return { rejected: "the token has expired" }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === "missing") return { rejected: `the token lacks the ${error.claim} claim` }
    return { rejected: CLAIM_PROBLEMS[error.claim] ?? `the token's ${error.claim} claim is not acceptable` }
  }
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return { rejected: "the token's signature does not verify" }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return { rejected: "the token is signed with a key this service does not know" }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return { rejected: "the token is signed with an algorithm this service does not accept" }
  }
  // anything else jose or WebCrypto throws over the token's header, payload or signature (a TypeError for an
  // algorithm the key cannot do, say) is the token's fault: refused like any bad token, counted as a failure
  return { rejected: "the token is not a well-formed signed JWT" }
}

/**
 * Why a verified token's times are still not acceptable: issued in the future
 * (beyond the clock tolerance), or living longer than the rules allow — a
 * stolen long-lived token is a long-lived door. Without `iat`, its lifetime
 * counts from now.
 */
const lifetimeProblem = (payload: JWTPayload, rules: TokenRules, nowSeconds: number): RejectedToken | undefined => {
  if (payload.iat !== undefined && payload.iat > nowSeconds + CLOCK_TOLERANCE_SECONDS)
    return { rejected: CLAIM_PROBLEMS["iat"]! }
  const lifetime = payload.exp! - (payload.iat ?? nowSeconds)
  return lifetime > rules.maxLifetimeSeconds + CLOCK_TOLERANCE_SECONDS
    ? {
        rejected: `the token's lifetime (exp - iat) exceeds the ${rules.maxLifetimeSeconds} seconds this service accepts`
      }
    : undefined
}

const verifyToken = (key: CryptoKey | JWTVerifyGetKey, expected: TokenRules) => {
  const resolvedKey = typeof key === "function" ? keySetResolver(key) : key
  // the embedded key verifies its own algorithm only; a key set's keys each say theirs
  const algorithms = typeof key === "function" ? ACCEPTED_ALGORITHMS : [SIGNING_ALGORITHM]
  return async (
    token: string
  ): Promise<{ readonly token: VerifiedToken; readonly expiresAtSeconds: number } | RejectedToken> => {
    try {
      const { payload } = await jwtVerify(token, resolvedKey as CryptoKey, {
        algorithms,
        issuer: expected.issuer,
        audience: expected.audience,
        requiredClaims: ["exp", "sub"],
        clockTolerance: CLOCK_TOLERANCE_SECONDS
      })
      const partnerId = partnerOf(payload)
      if (partnerId === undefined) return { rejected: "the token names no partner" }
      const tooLong = lifetimeProblem(payload, expected, Date.now() / 1000)
      return tooLong ?? { token: { partnerId, scopes: scopesOf(payload) }, expiresAtSeconds: payload.exp! }
    } catch (error) {
      return rejectionOf(error)
    }
  }
}

/** JWKS mode: the identity provider's key set, cached and refetched when a token names a key it does not hold. */
export const remoteKeySet = (url: string, cacheMaxAgeSeconds: number, cooldownSeconds: number): JWTVerifyGetKey =>
  // a fetch that hangs ends after the timeout, so a request waiting on it can be let go without leaving it behind for long
  createRemoteJWKSet(new URL(url), {
    cacheMaxAge: cacheMaxAgeSeconds * 1000,
    cooldownDuration: cooldownSeconds * 1000,
    timeoutDuration: JWKS_TIMEOUT_MILLIS
  })

const JWKS_TIMEOUT_MILLIS = 5_000
