/**
 * `@kasko/redis`: the RateLimiter in Redis — one limit per subscription key for every instance together.
 * @module
 */
export * as RedisRateLimiter from "./RedisRateLimiter.js"
