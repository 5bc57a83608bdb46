/**
 * Access tokens: issued by `kasko tokens issue` with the embedded key, or by
 * the insurer's identity provider (JWKS mode); verified with jose — signature,
 * algorithm, exp/nbf, issuer and audience. The partner is the `partner_id`
 * claim when present (a partner user's token), else the subject.
 */
import type { VerifiedToken } from "@kasko/express"
import { createRemoteJWKSet, jwtVerify, SignJWT, type JWTPayload, type JWTVerifyGetKey, type CryptoKey } from "jose"
import { randomUUID } from "node:crypto"
import { SIGNING_ALGORITHM, type SigningKey } from "./SigningKey.js"

/** Asymmetric algorithms only: never `none`, never an HMAC keyed with a public key. */
const ACCEPTED_ALGORITHMS = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"]

export interface TokenAudience {
  readonly issuer: string
  readonly audience: string
}

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

/** A verifier over a key or a key set; undefined for every token that does not verify. */
export const makeTokenVerifier =
  (key: CryptoKey | JWTVerifyGetKey, expected: TokenAudience) =>
  async (token: string): Promise<VerifiedToken | undefined> => {
    try {
      const { payload } = await jwtVerify(token, key as CryptoKey, {
        algorithms: ACCEPTED_ALGORITHMS,
        issuer: expected.issuer,
        audience: expected.audience,
        requiredClaims: ["exp", "sub"],
        clockTolerance: 5
      })
      const partnerId = partnerOf(payload)
      return partnerId === undefined ? undefined : { partnerId, scopes: scopesOf(payload) }
    } catch {
      return undefined
    }
  }

/** JWKS mode: the identity provider's key set, cached and refetched when a token names a key it does not hold. */
export const remoteKeySet = (url: string, cacheMaxAgeSeconds: number, cooldownSeconds: number): JWTVerifyGetKey =>
  createRemoteJWKSet(new URL(url), { cacheMaxAge: cacheMaxAgeSeconds * 1000, cooldownDuration: cooldownSeconds * 1000 })
