/** The token verifier remembers verified tokens — and still refuses one once it has expired. */
import { makeTokenVerifier } from "@kasko/server"
import { generateKeyPair, SignJWT } from "jose"
import { afterEach, describe, expect, it, vi } from "vitest"

afterEach(() => {
  vi.useRealTimers()
})

describe("remembered tokens", () => {
  it("are accepted again without a signature check, until their exp", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256")
    const verify = makeTokenVerifier(publicKey, { issuer: "kasko", audience: "kasko-partner-api" })
    const token = await new SignJWT({ scope: "offers:create" })
      .setProtectedHeader({ alg: "ES256" })
      .setSubject("partner-a")
      .setIssuer("kasko")
      .setAudience("kasko-partner-api")
      .setExpirationTime("60s")
      .sign(privateKey)
    expect(await verify(token)).toEqual({ partnerId: "partner-a", scopes: new Set(["offers:create"]) })
    expect(await verify(token)).toEqual({ partnerId: "partner-a", scopes: new Set(["offers:create"]) })

    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 2 * 60_000)
    expect(await verify(token)).toBeUndefined()
  })

  it("never remembers a token that did not verify", async () => {
    const { publicKey } = await generateKeyPair("ES256")
    const stranger = await generateKeyPair("ES256")
    const verify = makeTokenVerifier(publicKey, { issuer: "kasko", audience: "kasko-partner-api" })
    const forged = await new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setSubject("partner-a").setIssuer("kasko").setAudience("kasko-partner-api").setExpirationTime("60s").sign(stranger.privateKey)
    expect(await verify(forged)).toBeUndefined()
    expect(await verify(forged)).toBeUndefined()
  })
})
