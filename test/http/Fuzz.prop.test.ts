/**
 * HTTP fuzzing against the real server: generated methods, paths, headers and
 * bodies — random JSON of every shape, valid requests with one field
 * replaced by anything, paths with good and malformed percent-encodings, and
 * bodies under every Content-Encoding, compressed or not. Never a 5xx; every error is problem+json (violations on
 * a 400); every answer conforms to /openapi.json. Seeded: set KASKO_FUZZ_SEED
 * to replay a run; fast-check prints the seed and path of a failure.
 */
import { Examples } from "@kasko/core"
import fc from "fast-check"
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import { addPartner, type PartnerCredentials } from "./credentials.js"
import { makeClient, startTestService, type TestService } from "./support.js"

const SEED = Number(process.env["KASKO_FUZZ_SEED"] ?? Date.now() % 2_147_483_647)
const RUNS = 2_500

const directory = temporaryDirectory("kasko-fuzz-")
let server: TestService
let client: Awaited<ReturnType<typeof makeClient>>
let partner: PartnerCredentials
let quoteId = ""

beforeAll(async () => {
  partner = await addPartner(directory.path, "fuzz-partner")
  server = await startTestService({ dataDirectory: directory.path, authentication: "real" })
  client = await makeClient(server.url)
  quoteId = (
    await client.request("POST", "/insurance/car/quotes", { body: Examples.quoteRequest(), headers: partner.headers })
  ).body.quote_id
})
afterAll(async () => {
  await server.stop()
  directory.remove()
})

/** JSON of every shape: wrong types, huge numbers, unicode, nulls, deep nesting. */
const anyJson = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 6 }) },
  {
    weight: 1,
    // 2^53 + 1, written out: JSON carries it, a double cannot hold it
    // biome-ignore lint/correctness/noPrecisionLoss: the point of this value is that it loses precision
    arbitrary: fc.constantFrom(1e308, -1e308, 9007199254740993, -0, "𝔨å𝔰𝔨𝔬 ø", "\u0000", "\ud800", "".padEnd(5000, "å"))
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 10, max: 2_000 })
      .map((depth) => JSON.parse("[".repeat(depth) + "]".repeat(depth)) as unknown)
  }
)

/** Sets `value` at a random path inside a copy of `document`. */
const withReplaced = (document: unknown, pathChoices: ReadonlyArray<number>, value: unknown): unknown => {
  const copy = structuredClone(document)
  let target = copy as Record<string, unknown>
  for (const choice of pathChoices) {
    if (typeof target !== "object" || target === null) break
    const keys = Object.keys(target)
    if (keys.length === 0) break
    const key = keys[choice % keys.length]!
    const next = target[key]
    if (typeof next !== "object" || next === null || choice % 3 === 0) {
      target[key] = value
      return copy
    }
    target = next as Record<string, unknown>
  }
  return copy
}

const validBodies = [
  Examples.offerRequest(),
  Examples.quoteRequest(),
  Examples.quoteRequest(
    Examples.standardParameters({ policy_holder: "organization" }),
    "insurance-car-standalone",
    "premium"
  )
]

const body = fc.oneof(
  { weight: 2, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...validBodies), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), anyJson)
      .map(([document, path, value]) => JSON.stringify(withReplaced(document, path, value)))
  },
  { weight: 1, arbitrary: fc.constantFrom(...validBodies).map((document) => JSON.stringify(document)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.constant(undefined) }
)

/** Percent-encodings good and bad: truncated, not hex, overlong UTF-8, encoded NUL, slash and bidi override. */
const percentEncoded = fc
  .array(
    fc.oneof(
      fc.constantFrom("%", "%f", "%zz", "%ff", "%C0%AE", "%E2%80%AE", "%00", "%2F", "%25", "%%", "%c3%28"),
      fc.integer({ min: 0, max: 255 }).map((byte) => `%${byte.toString(16).padStart(2, "0")}`),
      fc.webSegment()
    ),
    { minLength: 1, maxLength: 4 }
  )
  .map((parts) => parts.join(""))

const path = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "/insurance/car/offers",
      "/insurance/car/quotes",
      "/products/insurance-car-leasing",
      "/products/insurance-car-standalone"
    )
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom("quote", "unknown", "malformed")
      .map(
        (kind) =>
          `/insurance/car/quotes/${kind === "quote" ? quoteId : kind === "unknown" ? "0190a000-0000-7000-8000-000000000000" : "x"}`
      )
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("quote", "unknown")
      .map(
        (kind) =>
          `/insurance/car/quotes/${kind === "quote" ? quoteId : "0190a000-0000-7000-8000-00000000ffff"}/activation`
      )
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "/health",
      "/ready",
      "/openapi.json",
      "/",
      "/products/",
      "/products/%00",
      "/insurance/car/quotes/..%2F..%2Fetc",
      "/PRODUCTS/insurance-car-leasing",
      "/insurance//car/offers"
    )
  },
  { weight: 1, arbitrary: fc.webSegment().map((segment) => `/products/${segment}`) },
  { weight: 1, arbitrary: fc.array(fc.webSegment(), { maxLength: 4 }).map((segments) => `/${segments.join("/")}`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          "/products/#",
          "/insurance/car/quotes/#",
          "/insurance/car/quotes/#/activation",
          "/#",
          "/insurance/car/#"
        ),
        percentEncoded
      )
      .map(([template, encoded]) => template.replace("#", encoded))
  }
)

const COMPRESSORS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync
}

/** A Content-Encoding — accepted, unknown or nonsense — and a body that may or may not be encoded with it. */
const encoded = fc.record({
  encoding: fc.constantFrom("gzip", "deflate", "br", "identity", "compress", "zstd", "gzip, br", "x-unknown", ""),
  compress: fc.boolean(),
  noise: fc.uint8Array({ maxLength: 64 })
})

const headers = fc.record({
  credentials: fc.constantFrom("valid", "valid", "valid", "none", "bad-token", "no-key"),
  contentType: fc.constantFrom(
    "application/json",
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/json; charset=latin1",
    "application/x-www-form-urlencoded",
    ""
  ),
  requestId: fc.option(fc.string({ maxLength: 300 }), { nil: undefined })
})

const headersOf = (choice: {
  credentials: string
  contentType: string
  requestId: string | undefined
}): Record<string, string> => {
  const result: Record<string, string> = {}
  if (choice.contentType !== "") result["content-type"] = choice.contentType
  if (choice.requestId !== undefined && /^[\t\x20-\x7e]*$/.test(choice.requestId))
    result["x-request-id"] = choice.requestId
  if (choice.credentials === "valid" || choice.credentials === "no-key")
    result["authorization"] = partner.headers["authorization"]!
  if (choice.credentials === "bad-token") result["authorization"] = "Bearer abc.def.ghi"
  if (choice.credentials !== "no-key" && choice.credentials !== "none")
    result["ocp-apim-subscription-key"] = partner.subscriptionKey
  return result
}

describe("HTTP fuzzing", () => {
  it(`answers ${RUNS} generated requests with no 5xx, problem+json errors and documented answers (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "POST", "PUT", "DELETE", "PATCH", "HEAD"),
        path,
        headers,
        body,
        fc.option(encoded, { freq: 4 }),
        async (method, target, headerChoice, rawBody, encoding) => {
          const requestHeaders = headersOf(headerChoice)
          let sent: string | Uint8Array | undefined = rawBody
          if (encoding !== null && rawBody !== undefined) {
            if (encoding.encoding !== "") requestHeaders["content-encoding"] = encoding.encoding
            const compress = COMPRESSORS[encoding.encoding]
            sent =
              encoding.compress && compress !== undefined
                ? compress(Buffer.from(rawBody))
                : Buffer.concat([Buffer.from(rawBody), encoding.noise])
          }
          const answer = await client.request(method, target, {
            headers: requestHeaders,
            ...(sent === undefined || method === "GET" || method === "HEAD" ? {} : { rawBody: sent })
          })
          expect(answer.status, `${method} ${target} → ${answer.status} ${answer.text.slice(0, 300)}`).toBeLessThan(500)
          if (answer.status >= 400 && method !== "HEAD") {
            expect(answer.headers.get("content-type")).toContain("application/problem+json")
            expect(answer.body).toMatchObject({
              type: expect.any(String),
              title: expect.any(String),
              status: answer.status
            })
            if (answer.status === 400) expect(Array.isArray(answer.body.violations)).toBe(true)
          }
        }
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true }
    )
  }, 240_000)
})
