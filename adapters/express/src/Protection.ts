/**
 * What a service on the internet needs in front of its routes: security
 * headers for a JSON API (helmet), CORS only for the origins configured, a
 * rate limit per authenticated subscription key and one on failed
 * authentication per client address (express-rate-limit), answering 429
 * problem+json with Retry-After.
 */
import cors from "cors"
import type { RequestHandler } from "express"
import { ipKeyGenerator, rateLimit } from "express-rate-limit"
import helmet from "helmet"
import { PRINCIPAL, type Principal } from "./Authentication.js"
import { constraintViolation, PROBLEMS, sendProblem } from "./Problem.js"

export interface ProtectionOptions {
  /** Requests one subscription key may make per minute, counted once the caller is authenticated. */
  readonly requestsPerMinute: number
  /** Requests refused with 401 one client address may make per minute before it is refused outright. */
  readonly failedAuthenticationsPerMinute: number
  /** Origins browsers may call the API from; none (the default) leaves CORS off. */
  readonly corsOrigins: ReadonlyArray<string>
  /**
   * The proxies in front whose X-Forwarded-For names the client (Express's
   * `trust proxy`): a number of hops, or addresses and subnets; "" trusts none.
   */
  readonly trustProxy?: string
}

/** Express's `trust proxy` setting for a ProtectionOptions value. */
export const trustProxySetting = (trustProxy: string | undefined): boolean | number | string =>
  trustProxy === undefined || trustProxy === "" ? false : /^\d+$/.test(trustProxy) ? Number(trustProxy) : trustProxy

const SUBSCRIPTION_KEY = "ocp-apim-subscription-key"

/** Security headers suited to a JSON API with one HTML page (/docs, which loads only same-origin scripts). */
export const securityHeaders = (): RequestHandler => helmet()

/** CORS for the configured origins, or nothing. */
export const corsFor = (origins: ReadonlyArray<string>): Array<RequestHandler> =>
  origins.length === 0
    ? []
    : [
        cors({
          origin: [...origins],
          allowedHeaders: ["Authorization", SUBSCRIPTION_KEY, "Content-Type", "Idempotency-Key", "X-Request-Id"],
          exposedHeaders: ["X-Request-Id", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]
        })
      ]

const tooManyRequests: RequestHandler = (request, response) => {
  const resetTime = (request as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime
  const seconds = resetTime === undefined ? 60 : Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000))
  sendProblem(response, { problem: PROBLEMS.tooManyRequests, headers: { "Retry-After": String(seconds) } })
}

/**
 * The rate limit per subscription key, placed after authentication: only a
 * caller that proved it holds the key is counted against it, so nobody can
 * spend a partner's limit by sending its key with a bad token.
 */
export const rateLimitPerKey = (requestsPerMinute: number): RequestHandler =>
  rateLimit({
    windowMs: 60_000,
    limit: requestsPerMinute,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    keyGenerator: (_request, response) => `key:${(response.locals[PRINCIPAL] as Principal).rateLimitKey}`,
    handler: tooManyRequests
  })

/**
 * The limit on failed authentication per client address, placed before
 * authentication: only answers of 401 count, so a client guessing credentials
 * is refused after `failuresPerMinute` while every authenticated caller goes on.
 */
export const limitFailedAuthentication = (failuresPerMinute: number): RequestHandler =>
  rateLimit({
    windowMs: 60_000,
    limit: failuresPerMinute,
    standardHeaders: false,
    legacyHeaders: false,
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_request, response) => response.statusCode !== 401,
    keyGenerator: (request) => `address:${ipKeyGenerator(request.ip ?? "unknown")}`,
    handler: tooManyRequests
  })

/** HTTP/1.1 requires Host (RFC 9112 §3.2); Node would answer its absence with a bare 400 of its own. */
export const requireHost: RequestHandler = (request, response, next) => {
  if (request.httpVersion === "1.1" && request.headers.host === undefined) {
    sendProblem(response, constraintViolation([{ field: "Host", message: "is required in HTTP/1.1 (RFC 9112)" }]))
    return
  }
  next()
}
