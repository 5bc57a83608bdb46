/**
 * Production token mode: the service verifies tokens with the identity
 * provider's JWKS — here served by the test itself — and follows a key
 * rotation: a token signed with a new key is accepted once the key set lists
 * it, one signed with a removed key is rejected.
 */
import { Examples } from "@kasko/core"
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import { kasko } from "./credentials.js"
import { makeClient, startTestService, type TestService } from "./support.js"

const ISSUER = "https://idp.partner-insurer.example"
const AUDIENCE = "kasko-partner-api-production"

interface SigningKey {
  readonly kid: string
  readonly alg: "ES256" | "RS256"
  readonly privateKey: CryptoKey
  readonly publicJwk: JWK
}

const makeKey = async (kid: string, alg: "ES256" | "RS256"): Promise<SigningKey> => {
  const { privateKey, publicKey } = await generateKeyPair(alg)
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } }
}

const directory = temporaryDirectory("kasko-jwks-")
let published: Array<SigningKey> = []
let fetches = 0
let failing = false
let identityProvider: Server
let server: TestService
let client: Awaited<ReturnType<typeof makeClient>>
let subscriptionKey: string

const sign = (
  key: SigningKey,
  claims: Record<string, unknown> = {},
  subject = "fleet-leasing",
  issuer = ISSUER,
  audience = AUDIENCE
) =>
  new SignJWT({ scope: "offers:create", ...claims })
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .setSubject(subject)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(key.privateKey)

const offerWith = (token: string) =>
  client.request("POST", "/insurance/car/offers", {
    body: Examples.offerRequest(),
    headers: { authorization: `Bearer ${token}`, "ocp-apim-subscription-key": subscriptionKey }
  })

beforeAll(async () => {
  identityProvider = createServer((request, response) => {
    fetches++
    if (failing) return void response.writeHead(500).end()
    if (request.url !== "/.well-known/jwks.json") return void response.writeHead(404).end()
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ keys: published.map((key) => key.publicJwk) }))
  })
  await new Promise<void>((resolve) => identityProvider.listen(0, "127.0.0.1", resolve))
  const jwksUrl = `http://127.0.0.1:${(identityProvider.address() as AddressInfo).port}/.well-known/jwks.json`
  subscriptionKey = JSON.parse(
    await kasko(directory.path, "partners", "add", "--id", "fleet-leasing", "--name", "Fleet Leasing A/S", "--json")
  ).subscription_key
  server = await startTestService({
    dataDirectory: directory.path,
    authentication: "real",
    environment: {
      KASKO_JWKS_URL: jwksUrl,
      KASKO_TOKEN_ISSUER: ISSUER,
      KASKO_TOKEN_AUDIENCE: AUDIENCE,
      KASKO_JWKS_COOLDOWN_SECONDS: "0"
    }
  })
  client = await makeClient(server.url)
})
afterAll(async () => {
  await server.stop()
  await new Promise((resolve) => identityProvider.close(resolve))
  directory.remove()
})

describe("JWKS mode", () => {
  it("accepts the identity provider's tokens, caches its key set, and follows a key rotation", async () => {
    const first = await makeKey("key-2026-01", "ES256")
    const second = await makeKey("key-2026-02", "RS256")
    published = [first]

    expect((await offerWith(await sign(first))).status).toBe(200)
    const fetchesAfterFirst = fetches
    expect((await offerWith(await sign(first))).status).toBe(200)
    expect(fetches).toBe(fetchesAfterFirst) // the key set is cached

    // rotation: the provider now publishes only the new key
    published = [second]
    expect((await offerWith(await sign(second))).status).toBe(200)
    const removed = await offerWith(await sign(first))
    expect(removed.status).toBe(401)
    expect(removed.headers.get("www-authenticate")).toBe(
      'Bearer realm="kasko", error="invalid_token", error_description="the token is signed with a key this service does not know"'
    )
  })

  it("answers 503 with Retry-After, not 401, while the identity provider's key set cannot be fetched", async () => {
    const unpublished = await makeKey("key-2026-05", "ES256")
    failing = true
    try {
      const answer = await offerWith(await sign(unpublished))
      expect(answer.status).toBe(503)
      expect(answer.headers.get("retry-after")).toMatch(/^\d+$/)
    } finally {
      failing = false
    }
    published = [unpublished]
    expect((await offerWith(await sign(unpublished))).status).toBe(200)
  })

  it("answers 401, not 503, to a forged token whose header names an algorithm and key the set cannot verify", async () => {
    published = [await makeKey("key-2026-06", "ES256")]
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url")
    const forged = (header: object) =>
      `${encode(header)}.${encode({ sub: "fleet-leasing", iss: ISSUER, aud: AUDIENCE, exp: 9_999_999_999 })}.AAAA`
    for (const header of [
      { alg: "RS256" },
      { alg: "ES256", kid: "key-2026-06" },
      { alg: "RS256", kid: "key-2026-06" }
    ]) {
      const answer = await offerWith(forged(header))
      expect({ header, status: answer.status }).toEqual({ header, status: 401 })
    }
  })

  it("rejects a token of the right key but the wrong issuer or audience", async () => {
    const key = await makeKey("key-2026-03", "ES256")
    published = [key]
    expect((await offerWith(await sign(key))).status).toBe(200)
    expect((await offerWith(await sign(key, {}, "fleet-leasing", "https://evil.example"))).status).toBe(401)
    expect((await offerWith(await sign(key, {}, "fleet-leasing", ISSUER, "another-api"))).status).toBe(401)
  })

  it("leaves issuing tokens to the identity provider: kasko tokens issue refuses", async () => {
    process.env["KASKO_JWKS_URL"] = "http://127.0.0.1:1/jwks.json"
    process.env["KASKO_TOKEN_ISSUER"] = ISSUER
    process.env["KASKO_TOKEN_AUDIENCE"] = AUDIENCE
    try {
      await expect(
        kasko(directory.path, "tokens", "issue", "--partner", "fleet-leasing", "--scopes", "offers:create")
      ).rejects.toThrow(/tokens come from the identity provider/)
    } finally {
      delete process.env["KASKO_JWKS_URL"]
      delete process.env["KASKO_TOKEN_ISSUER"]
      delete process.env["KASKO_TOKEN_AUDIENCE"]
    }
  })

  it("takes the partner from a partner user's partner_id claim", async () => {
    const key = await makeKey("key-2026-04", "ES256")
    published = [key]
    expect((await offerWith(await sign(key, { partner_id: "fleet-leasing" }, "user-17@fleet-leasing"))).status).toBe(
      200
    )
    expect((await offerWith(await sign(key, {}, "user-17@fleet-leasing"))).status).toBe(401)
  })
})
