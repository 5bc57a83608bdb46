export * as RedisRateLimiter from "./RedisRateLimiter.js"
