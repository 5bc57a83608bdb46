/**
 * What a service on the internet needs in front of its routes: security
 * headers for a JSON API (helmet), CORS only for the origins configured, and a
 * rate limit per subscription key (express-rate-limit) answering 429
 * problem+json with Retry-After and RateLimit-* headers.
 */
import cors from "cors"
import type { RequestHandler } from "express"
import { ipKeyGenerator, rateLimit } from "express-rate-limit"
import helmet from "helmet"
import { PROBLEMS, sendProblem } from "./Problem.js"

export interface ProtectionOptions {
  /** Requests one subscription key may make per minute (callers without a key are counted by address). */
  readonly requestsPerMinute: number
  /** Origins browsers may call the API from; none (the default) leaves CORS off. */
  readonly corsOrigins: ReadonlyArray<string>
}

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

/** The per-key rate limit, for the API's operations. */
export const rateLimitPerKey = (requestsPerMinute: number): RequestHandler =>
  rateLimit({
    windowMs: 60_000,
    limit: requestsPerMinute,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    keyGenerator: (request) => {
      const key = request.get(SUBSCRIPTION_KEY)
      return key !== undefined && key.length <= 200 ? `key:${key}` : `address:${ipKeyGenerator(request.ip ?? "unknown")}`
    },
    handler: (request, response) => {
      const resetTime = (request as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime
      const seconds = resetTime === undefined ? 60 : Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000))
      sendProblem(response, { problem: PROBLEMS.tooManyRequests, headers: { "Retry-After": String(seconds) } })
    }
  })
