/**
 * Spec §5 end to end with the real authentication: bearer token (jose, the
 * embedded key pair) plus subscription key. Every failure is the same 401
 * problem; only WWW-Authenticate differs (RFC 6750).
 */
import { Examples } from "@kasko/core"
import { OPERATIONS } from "@kasko/express"
import { base64url, generateKeyPair, importJWK, SignJWT } from "jose"
import { createHmac } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { addPartner, kasko, serviceWithPartners } from "./credentials.js"

const service = serviceWithPartners("auth", ["alice-leasing", "bob-biler"])

const NO_CREDENTIALS = 'Bearer realm="kasko"'
const invalidToken = (why: string) => `Bearer realm="kasko", error="invalid_token", error_description="${why}"`
const INVALID_KEY =
  'Bearer realm="kasko", error="invalid_token", error_description="the subscription key is not valid for this token"'
const INVALID_KEY_DETAIL = "The subscription key is not valid for this token."

const OFFER = "/insurance/car/offers"
const offer = (headers: Record<string, string>, path = OFFER) =>
  service.client.request("POST", path, { body: Examples.offerRequest(), headers })

const expectUnauthorized = (
  answer: { status: number; headers: Headers; body: any },
  challenge: string,
  detail?: string | RegExp
) => {
  expect(answer.status).toBe(401)
  expect(answer.headers.get("content-type")).toContain("application/problem+json")
  expect(answer.body).toEqual({
    type: "https://kasko.example/problems/unauthorized",
    title: "Unauthorized",
    status: 401,
    detail: detail instanceof RegExp ? expect.stringMatching(detail) : (detail ?? expect.any(String))
  })
  expect(answer.headers.get("www-authenticate")).toBe(challenge)
}

/** The embedded signing key, as an attacker who stole nothing would not have it — used to forge precise bad tokens. */
const signingKey = () => JSON.parse(readFileSync(join(service.directory.path, "signing-key.json"), "utf8"))

const signWithServiceKey = async (
  claims: Record<string, unknown>,
  adjust: (jwt: SignJWT) => SignJWT = (jwt) => jwt,
  expires = true,
  issuedAt = true
) => {
  const jwk = signingKey()
  const key = await importJWK(jwk, "ES256")
  const now = Math.floor(Date.now() / 1000)
  const jwt = new SignJWT({ scope: "offers:create", ...claims })
    .setProtectedHeader({ alg: "ES256", kid: jwk.kid })
    .setSubject("alice-leasing")
    .setIssuer("kasko")
    .setAudience("kasko-partner-api")
  if (issuedAt) jwt.setIssuedAt(now)
  return adjust(expires ? jwt.setExpirationTime(now + 600) : jwt).sign(key)
}

const withToken = (token: string) => ({
  authorization: `Bearer ${token}`,
  "ocp-apim-subscription-key": service.partners["alice-leasing"]!.subscriptionKey
})

describe("authentication (spec §5)", () => {
  it("serves a partner with a valid token and its own subscription key", async () => {
    expect((await offer(service.partners["alice-leasing"]!.headers)).status).toBe(200)
  })

  it("answers no credentials with a bare Bearer challenge whose detail names both headers", async () => {
    expectUnauthorized(await offer({}), NO_CREDENTIALS, /Authorization header.*ocp-apim-subscription-key header/)
    expectUnauthorized(
      await offer({ "ocp-apim-subscription-key": service.partners["alice-leasing"]!.subscriptionKey }),
      NO_CREDENTIALS,
      /Authorization header/
    )
  })

  it("ignores a token in the query string", async () => {
    expectUnauthorized(
      await offer(
        { "ocp-apim-subscription-key": service.partners["alice-leasing"]!.subscriptionKey },
        `${OFFER}?access_token=${service.partners["alice-leasing"]!.token}`
      ),
      NO_CREDENTIALS
    )
  })

  it.each(["bearer", "BEARER", "BeArEr"])(
    "accepts the authorization scheme spelt %s (RFC 9110: case-insensitive)",
    async (scheme) => {
      const alice = service.partners["alice-leasing"]!
      expect(
        (await offer({ authorization: `${scheme} ${alice.token}`, "ocp-apim-subscription-key": alice.subscriptionKey }))
          .status
      ).toBe(200)
    }
  )

  it.each([
    ["another scheme", "Basic YWxpY2U6c2VjcmV0"],
    ["a bearer scheme without a token", "Bearer"],
    ["a token with spaces inside", "Bearer abc def"]
  ])("answers an Authorization header with %s with invalid_request naming the header", async (_what, authorization) => {
    expectUnauthorized(
      await offer({ authorization, "ocp-apim-subscription-key": service.partners["alice-leasing"]!.subscriptionKey }),
      'Bearer realm="kasko", error="invalid_request", error_description="the Authorization header must read Bearer <token>"',
      "The Authorization header must read Bearer <token>."
    )
  })

  it("answers a token that is not a JWT with invalid_token saying so", async () => {
    expectUnauthorized(
      await offer({
        authorization: "Bearer not-a-token",
        "ocp-apim-subscription-key": service.partners["alice-leasing"]!.subscriptionKey
      }),
      invalidToken("the token is not a well-formed signed JWT"),
      "The access token was refused: the token is not a well-formed signed JWT."
    )
  })

  it("rejects hostile and broken tokens with invalid_token", async () => {
    const now = Math.floor(Date.now() / 1000)
    const unsigned = `${base64url.encode(JSON.stringify({ alg: "none", typ: "JWT" }))}.${base64url.encode(
      JSON.stringify({
        sub: "alice-leasing",
        iss: "kasko",
        aud: "kasko-partner-api",
        exp: now + 600,
        scope: "offers:create"
      })
    )}.`
    // HS256 "signed" with the service's public key as the HMAC secret (the classic algorithm confusion)
    const { d: _private, ...publicJwk } = signingKey()
    const header = base64url.encode(JSON.stringify({ alg: "HS256", typ: "JWT" }))
    const payload = base64url.encode(
      JSON.stringify({
        sub: "alice-leasing",
        iss: "kasko",
        aud: "kasko-partner-api",
        exp: now + 600,
        scope: "offers:create"
      })
    )
    const confused = `${header}.${payload}.${base64url.encode(createHmac("sha256", JSON.stringify(publicJwk)).update(`${header}.${payload}`).digest())}`
    const [head, body, signature] = service.partners["alice-leasing"]!.token.split(".") as [string, string, string]
    const tampered = `${head}.${base64url.encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(base64url.decode(body))), scope: "quotes:create" }))}.${signature}`
    const flippedSignature = `${head}.${body}.${signature.slice(0, -4)}${signature.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`
    const stranger = await generateKeyPair("ES256")
    const foreign = await new SignJWT({ scope: "offers:create" })
      .setProtectedHeader({ alg: "ES256", kid: signingKey().kid })
      .setSubject("alice-leasing")
      .setIssuer("kasko")
      .setAudience("kasko-partner-api")
      .setExpirationTime(now + 600)
      .sign(stranger.privateKey)
    const badSignature = "the token's signature does not verify"
    const badAlgorithm = "the token is signed with an algorithm this service does not accept"
    const tokens: Record<string, [string, string]> = {
      "alg none": [unsigned, badAlgorithm],
      "HS256 with the public key as secret": [confused, badAlgorithm],
      "tampered payload": [tampered, badSignature],
      "tampered signature": [flippedSignature, badSignature],
      "signed by another key": [foreign, badSignature],
      expired: [
        await signWithServiceKey({}, (jwt) => jwt.setIssuedAt(now - 7200).setExpirationTime(now - 3600)),
        "the token has expired"
      ],
      "not yet valid": [
        await signWithServiceKey({}, (jwt) => jwt.setNotBefore(now + 3600)),
        "the token is not valid yet"
      ],
      "wrong issuer": [
        await signWithServiceKey({}, (jwt) => jwt.setIssuer("someone-else")),
        "the token was issued by another issuer"
      ],
      "wrong audience": [
        await signWithServiceKey({}, (jwt) => jwt.setAudience("another-api")),
        "the token is meant for another audience"
      ],
      "no expiry": [await signWithServiceKey({}, (jwt) => jwt, false), "the token lacks the exp claim"],
      "issued an hour from now": [
        await signWithServiceKey({}, (jwt) => jwt.setIssuedAt(now + 3600).setExpirationTime(now + 7200)),
        "the token's issue time lies in the future"
      ],
      "living two days": [
        await signWithServiceKey({}, (jwt) => jwt.setExpirationTime(now + 2 * 86_400)),
        "the token's lifetime (exp - iat) exceeds the 86400 seconds this service accepts"
      ],
      "without iat, expiring in two days": [
        await signWithServiceKey({}, (jwt) => jwt.setExpirationTime(now + 2 * 86_400), true, false),
        "the token's lifetime (exp - iat) exceeds the 86400 seconds this service accepts"
      ]
    }
    for (const [name, [token, why]] of Object.entries(tokens)) {
      const answer = await offer(withToken(token))
      expect({ name, status: answer.status, challenge: answer.headers.get("www-authenticate") }).toEqual({
        name,
        status: 401,
        challenge: invalidToken(why)
      })
      expect(answer.body).toEqual({
        type: "https://kasko.example/problems/unauthorized",
        title: "Unauthorized",
        status: 401,
        detail: `The access token was refused: ${why}.`
      })
    }
    // the well-formed control tokens, signed the same way, are accepted — with and without iat
    expect((await offer(withToken(await signWithServiceKey({})))).status).toBe(200)
    expect((await offer(withToken(await signWithServiceKey({}, (jwt) => jwt, true, false)))).status).toBe(200)
  })

  it("answers a missing subscription key with invalid_request naming the header", async () => {
    const authorization = { authorization: `Bearer ${service.partners["alice-leasing"]!.token}` }
    expectUnauthorized(
      await offer(authorization),
      'Bearer realm="kasko", error="invalid_request", error_description="the ocp-apim-subscription-key header is missing"',
      "The ocp-apim-subscription-key header is missing."
    )
  })

  it("answers an unknown, altered, revoked or another partner's key, and a suspended partner, all the same way", async () => {
    const authorization = { authorization: `Bearer ${service.partners["alice-leasing"]!.token}` }
    const answers = [
      await offer({
        ...authorization,
        "ocp-apim-subscription-key": "ksk_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
      }),
      await offer({
        ...authorization,
        "ocp-apim-subscription-key": `${service.partners["alice-leasing"]!.subscriptionKey.slice(0, -1)}x`
      }),
      await offer({ ...authorization, "ocp-apim-subscription-key": service.partners["bob-biler"]!.subscriptionKey })
    ]

    const carol = await addPartner(service.directory.path, "carol-cars")
    const second = JSON.parse(
      await kasko(service.directory.path, "keys", "add", "--partner", "carol-cars", "--json")
    ) as { subscription_key: string }
    await kasko(
      service.directory.path,
      "keys",
      "revoke",
      "--partner",
      "carol-cars",
      "--key-prefix",
      carol.subscriptionKey.slice(0, 12)
    )
    answers.push(await offer(carol.headers))
    expect((await offer({ ...carol.headers, "ocp-apim-subscription-key": second.subscription_key })).status).toBe(200)

    const dave = await addPartner(service.directory.path, "dave-dealer")
    expect((await offer(dave.headers)).status).toBe(200)
    await kasko(service.directory.path, "partners", "suspend", "--id", "dave-dealer")
    answers.push(await offer(dave.headers))

    for (const answer of answers) expectUnauthorized(answer, INVALID_KEY, INVALID_KEY_DETAIL)
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1)
  })

  it.each(
    OPERATIONS.filter((operation) => operation.scope !== undefined).map(
      (operation) => [operation.operationId, operation] as const
    )
  )("answers %s without its scope with insufficient_scope naming the scope", async (_id, operation) => {
    const scopes = "products:read offers:create quotes:create quotes:read quotes:activate"
      .split(" ")
      .filter((scope) => scope !== operation.scope)
    const limited = await addPartner(
      service.directory.path,
      `limited-${operation.operationId.toLowerCase()}`,
      scopes.join(" ")
    )
    const path = operation.path
      .replace("{product_name}", "insurance-car-leasing")
      .replace("{quote_id}", "0190a000-0000-7000-8000-000000000001")
    const answer = await service.client.request(operation.method.toUpperCase(), path, {
      headers: limited.headers,
      ...(operation.requestBody === undefined ? {} : { body: Examples.quoteRequest() })
    })
    expectUnauthorized(
      answer,
      `Bearer realm="kasko", error="insufficient_scope", error_description="the token lacks the scope ${operation.scope}", scope="${operation.scope}"`,
      `The token lacks the scope ${operation.scope}.`
    )
  })

  it("keeps health and readiness public", async () => {
    expect((await service.client.request("GET", "/health")).status).toBe(200)
    expect((await service.client.request("GET", "/ready")).status).toBe(200)
  })

  it("stores no subscription key in plaintext", () => {
    const database = readFileSync(join(service.directory.path, "kasko.db"))
    const wal = (() => {
      try {
        return readFileSync(join(service.directory.path, "kasko.db-wal"))
      } catch {
        return Buffer.alloc(0)
      }
    })()
    for (const key of [
      service.partners["alice-leasing"]!.subscriptionKey,
      service.partners["bob-biler"]!.subscriptionKey
    ]) {
      const secret = key.slice(17)
      expect(database.includes(secret)).toBe(false)
      expect(wal.includes(secret)).toBe(false)
      expect(database.includes(key.slice(4, 16)) || wal.includes(key.slice(4, 16))).toBe(true)
    }
  })
})

describe("isolation between partners", () => {
  it("answers 404 to partner B for partner A's quote, on retrieve and activate, exactly as for an unknown id", async () => {
    const created = await service.client.request("POST", "/insurance/car/quotes", {
      body: Examples.quoteRequest(),
      headers: service.partners["alice-leasing"]!.headers
    })
    expect(created.status).toBe(200)
    const id = created.body.quote_id
    const unknown = await service.client.request("GET", "/insurance/car/quotes/0190a000-0000-7000-8000-00000000abcd", {
      headers: service.partners["bob-biler"]!.headers
    })
    const retrieve = await service.client.request("GET", `/insurance/car/quotes/${id}`, {
      headers: service.partners["bob-biler"]!.headers
    })
    const activate = await service.client.request("POST", `/insurance/car/quotes/${id}/activation`, {
      headers: service.partners["bob-biler"]!.headers
    })
    expect(retrieve.status).toBe(404)
    expect(activate.status).toBe(404)
    expect(retrieve.text).toBe(unknown.text)
    const own = await service.client.request("GET", `/insurance/car/quotes/${id}`, {
      headers: service.partners["alice-leasing"]!.headers
    })
    expect(own.text).toBe(created.text)
  })
})
