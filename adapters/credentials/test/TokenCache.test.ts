/**
 * The token verifier remembers verified tokens — it looks up the signing key
 * once, not on every request — still refuses one once it has expired, and
 * never remembers a refusal.
 */
import * as Tokens from "../src/Tokens.js"
import { generateKeyPair, SignJWT, type CryptoKey, type JWTVerifyGetKey } from "jose"
import { afterEach, describe, expect, it, vi } from "vitest"

afterEach(() => {
  vi.useRealTimers()
})

const AUDIENCE = { issuer: "kasko", audience: "kasko-partner-api", maxLifetimeSeconds: 86_400 }

const sign = (privateKey: CryptoKey, ttl = "60s") =>
  new SignJWT({ scope: "offers:create" })
    .setProtectedHeader({ alg: "ES256" })
    .setSubject("partner-a")
    .setIssuer("kasko")
    .setAudience("kasko-partner-api")
    .setIssuedAt()
    .setExpirationTime(ttl)
    .sign(privateKey)

/** A key getter that counts how often a signature check asked for the key, serving `current()`. */
const countingKeys = (current: () => CryptoKey | undefined) => {
  const lookups = { count: 0 }
  const getKey: JWTVerifyGetKey = async () => {
    lookups.count++
    const key = current()
    if (key === undefined) throw new (await import("jose")).errors.JWKSNoMatchingKey()
    return key
  }
  return { getKey, lookups }
}

describe("remembered tokens", () => {
  it("are accepted again without a signature check, until their exp", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256")
    const { getKey, lookups } = countingKeys(() => publicKey)
    const { verify } = Tokens.makeTokenVerifier(getKey, AUDIENCE)
    // the token's iat and exp and every check are read from a clock that moves only when the test moves it
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-03-02T09:00:00Z") })
    const token = await sign(privateKey)
    const accepted = { partnerId: "partner-a", scopes: new Set(["offers:create"]) }
    expect(await verify(token)).toEqual(accepted)
    expect(await verify(token)).toEqual(accepted)
    // a second before its exp
    vi.setSystemTime(Date.parse("2026-03-02T09:00:59Z"))
    expect(await verify(token)).toEqual(accepted)
    expect(lookups.count).toBe(1)

    // past its exp and the 5 s clock tolerance (Tokens.ts)
    vi.setSystemTime(Date.parse("2026-03-02T09:01:06Z"))
    expect(await verify(token)).toEqual({ rejected: "the token has expired" })
    expect(lookups.count).toBe(2)
  })

  it("never remembers a token that did not verify: once the key is known, the same token is accepted", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256")
    let published: CryptoKey | undefined
    const { getKey, lookups } = countingKeys(() => published)
    const { verify } = Tokens.makeTokenVerifier(getKey, AUDIENCE)
    const token = await sign(privateKey)
    expect(await verify(token)).toEqual({ rejected: "the token is signed with a key this service does not know" })
    expect(await verify(token)).toEqual({ rejected: "the token is signed with a key this service does not know" })
    published = publicKey
    expect(await verify(token)).toEqual({ partnerId: "partner-a", scopes: new Set(["offers:create"]) })
    expect(lookups.count).toBe(3)
  })

  it("refuses a token signed by another key, every time, with the reason", async () => {
    const { publicKey } = await generateKeyPair("ES256")
    const stranger = await generateKeyPair("ES256")
    const { verify } = Tokens.makeTokenVerifier(publicKey, AUDIENCE)
    const forged = await sign(stranger.privateKey)
    expect(await verify(forged)).toEqual({ rejected: "the token's signature does not verify" })
    expect(await verify(forged)).toEqual({ rejected: "the token's signature does not verify" })
  })
})
