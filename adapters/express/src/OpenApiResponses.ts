/**
 * What the OpenAPI document says of every answer: each status's description and
 * problem example, the headers answers carry, and the request headers an
 * operation may take.
 */
import type { DocumentResponse } from "./Operation.js"
import { PROBLEMS } from "./Problem.js"
import type { JsonObject } from "./SchemaLayout.js"

export const STATUS_DESCRIPTIONS: Readonly<Record<number, string>> = {
  304: "Not Modified: the client's copy (its ETag in If-None-Match) is the current version; no body",
  400: "Constraint Violation: the request breaks one or more rules, each named in `violations`. Every route refuses a request without Host (HTTP/1.1), or with Host, Authorization or the subscription key sent more than once.",
  401: 'Unauthorized: missing or invalid credentials, or the token lacks the operation\'s scope. `detail` and WWW-Authenticate (RFC 6750) say which: no error code when no credentials were sent; error="invalid_request" for a malformed Authorization header or a missing subscription key; error="invalid_token" with error_description for a refused token or subscription key; error="insufficient_scope" with scope="…". A missing scope answers 401, not RFC 6750\'s 403, as the specification requires.',
  404: "Not Found: unknown, expired (30 days; 7 in a sandbox) or another partner's resource",
  409: "Conflict: the request does not fit the state of what it acts on; `detail` says why, and what to do",
  413: "Payload Too Large: the body is over the size limit",
  415: "Unsupported Media Type: the body must be application/json",
  422: "Unprocessable Entity: the Idempotency-Key was used with a different request in the last 24 hours",
  429: "Too Many Requests: the subscription key is over its rate limit (see Retry-After and RateLimit-*)",
  500: "Internal Server Error",
  503: "Service Unavailable: storage, pricing or the identity provider is temporarily unavailable (see Retry-After)"
}

export const PROBLEM_EXAMPLES: Readonly<Record<number, object>> = {
  400: {
    ...PROBLEMS.constraintViolation,
    violations: [{ field: "product.parameters.vehicle_price", message: "must be between 1000 and 10000000" }]
  },
  401: { ...PROBLEMS.unauthorized, detail: "The access token was refused: the token has expired." },
  404: PROBLEMS.notFound,
  413: PROBLEMS.payloadTooLarge,
  415: { ...PROBLEMS.unsupportedMediaType, detail: "The body must be application/json." },
  422: {
    ...PROBLEMS.idempotencyKeyReused,
    detail: "This Idempotency-Key was used with a different request in the last 24 hours."
  },
  429: PROBLEMS.tooManyRequests,
  500: PROBLEMS.internal,
  503: PROBLEMS.serviceUnavailable
}

/** The 400 of a request whose headers are ambiguous, which every route answers before its own work. */
export const HEADERS_REFUSED_EXAMPLE = {
  ...PROBLEMS.constraintViolation,
  violations: [{ field: "Host", message: "must be sent once" }]
}

export const HEADERS = {
  XRequestId: {
    description:
      "The request's id: the client's X-Request-Id when it is a safe token, a new UUID otherwise; it names the request in the service's log",
    schema: { type: "string", maxLength: 128 }
  },
  RetryAfter: { description: "Seconds to wait before retrying", schema: { type: "integer", minimum: 1 } },
  WWWAuthenticate: {
    description: "The Bearer challenge (RFC 6750): error, error_description and, for a missing scope, scope",
    schema: { type: "string" },
    example: 'Bearer realm="kasko", error="invalid_token", error_description="the token has expired"'
  },
  RateLimitLimit: { description: "Requests the subscription key may make per window", schema: { type: "integer" } },
  RateLimitRemaining: { description: "Requests left in the current window", schema: { type: "integer" } },
  RateLimitReset: { description: "Seconds until the window resets", schema: { type: "integer" } },
  ETag: {
    description: "The document's version: the same until its content changes (an IPID: until the tariff version does)",
    schema: { type: "string" }
  },
  CacheControl: {
    description: "public, max-age=… for public documents (revalidate with If-None-Match); no-store for private ones",
    schema: { type: "string" }
  },
  ContentDisposition: {
    description: "inline, with the file name to save the document under",
    schema: { type: "string" }
  },
  PreferenceApplied: {
    description: "return=representation when the answer honours the request's Prefer: return=representation (RFC 7240)",
    schema: { type: "string", enum: ["return=representation"] }
  },
  ContentLanguage: {
    description:
      "The language of the answer's words: da (Danish, the default) or en (English), as the request's Accept-Language chose",
    schema: { type: "string", enum: ["da", "en"] }
  },
  Vary: {
    description: "Accept-Language: the answer's words depend on it (and Origin when CORS is configured)",
    schema: { type: "string" },
    example: "Accept-Language"
  },
  ProblemContentLanguage: {
    description: "en: a problem's title, detail and violations are in English, whatever Accept-Language asks for",
    schema: { type: "string", enum: ["en"] }
  }
} as const

const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` })

export const headersOf = (
  status: number,
  rateLimited: boolean,
  document?: DocumentResponse,
  preferReturn?: boolean,
  languageNegotiated?: boolean
): JsonObject => ({
  "X-Request-Id": header("XRequestId"),
  ...(languageNegotiated === true && (status === 200 || status === 304)
    ? { "Content-Language": header("ContentLanguage"), Vary: header("Vary") }
    : {}),
  ...(status >= 400 ? { "Content-Language": header("ProblemContentLanguage") } : {}),
  ...(preferReturn === true && status === 200 ? { "Preference-Applied": header("PreferenceApplied") } : {}),
  ...(document !== undefined && (status === 200 || status === 304)
    ? {
        "Cache-Control": header("CacheControl"),
        ...(document.maxAgeSeconds === undefined ? {} : { ETag: header("ETag") }),
        ...(status === 200 ? { "Content-Disposition": header("ContentDisposition") } : {})
      }
    : {}),
  ...(status === 401 ? { "WWW-Authenticate": header("WWWAuthenticate") } : {}),
  ...(status === 429 || status === 503 ? { "Retry-After": header("RetryAfter") } : {}),
  // a document caches may keep (public, max-age) answers without them: a shared cache would hand them on
  ...(rateLimited && (status === 429 || ((status === 200 || status === 304) && document?.maxAgeSeconds === undefined))
    ? {
        "RateLimit-Limit": header("RateLimitLimit"),
        "RateLimit-Remaining": header("RateLimitRemaining"),
        "RateLimit-Reset": header("RateLimitReset")
      }
    : {})
})

export const PREFER_PARAMETER = {
  name: "Prefer",
  in: "header",
  required: false,
  description:
    "return=representation (RFC 7240) asks for the resource's state in the answer in place of the empty JSON object; the answer then carries Preference-Applied: return=representation",
  schema: { type: "string" },
  example: "return=representation"
}

export const ACCEPT_LANGUAGE_PARAMETER = {
  name: "Accept-Language",
  in: "header",
  required: false,
  description:
    "The language of the answer's words (RFC 9110 §12.5.4): Danish (da, the default, and the answer when nothing asked for matches) or English (en). Language ranges with q weights: en-GB takes English, * any language, q=0 refuses one; on a tie, Danish. The answer's Content-Language says which it is.",
  schema: { type: "string" },
  example: "en-GB, en;q=0.9, da;q=0.5"
}

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the same key with the same body within 24 hours answers the original quote and creates none; the same key with another body answers 422. Keys are per partner.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
  example: "order-2026-0042-quote"
}
