/**
 * The Redis limiter on its own: two layers (two instances) count one key
 * together in Redis, and with no Redis the insurance counts and is told.
 * Redis runs on 127.0.0.1:6379 on the project's machines and in CI; on a
 * laptop without it the shared test skips, saying why (never in CI).
 */
import { RateLimiter as Port } from "@kasko/core"
import { Context, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { createConnection } from "node:net"
import { RateLimiterMemory } from "rate-limiter-flexible"
import { describe, expect, it } from "vitest"
import { layer, type RedisRateLimiterOptions } from "../src/RedisRateLimiter.js"

const MINUTE = 60_000

const redisAnswers = await new Promise<boolean>((resolve) => {
  const socket = createConnection({ host: "127.0.0.1", port: 6379 })
  socket.setTimeout(1_000)
  socket.once("connect", () => {
    socket.end()
    resolve(true)
  })
  socket.once("error", () => resolve(false))
  socket.once("timeout", () => {
    socket.destroy()
    resolve(false)
  })
})
if (!redisAnswers) {
  if (process.env["CI"] === "true") throw new Error("CI runs Redis on 127.0.0.1:6379, and nothing answers there")
  console.warn("RedisRateLimiter: no Redis answers on 127.0.0.1:6379, so the shared-count test is skipped here")
}

/** The limiter of `options`, for the enclosing scope's lifetime (one instance's). */
const limiterIn = (options: RedisRateLimiterOptions) =>
  Effect.map(Layer.build(layer(options)), (context) => Context.get(context, Port.RateLimiter))

const insuranceTelling = (told: Array<string>) => (limit: number, windowMillis: number) => {
  const alone = new RateLimiterMemory({ points: limit, duration: windowMillis / 1000 })
  const consume = alone.consume.bind(alone)
  alone.consume = (key, points, options) => {
    told.push(String(key))
    return consume(key, points, options)
  }
  return alone
}

describe.skipIf(!redisAnswers)("the rate limit in Redis", () => {
  it("counts one key for every instance together", async () => {
    const key = `test-${randomUUID()}`
    const options = { url: "redis://127.0.0.1:6379", keyPrefix: "kasko-test:", insuranceFor: insuranceTelling([]) }
    const windows = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const first = yield* limiterIn(options)
          const second = yield* limiterIn(options)
          return yield* Effect.forEach([first, second, first, second], (limiter) => limiter.hit(key, 3, MINUTE))
        })
      )
    )
    expect(windows.map((window) => window.used)).toEqual([1, 2, 3, 4])
    expect(Port.isExceeded(windows[3]!)).toBe(true)
  })
})

describe("the rate limit without Redis", () => {
  it("is counted by the insurance, which is told, and answers", async () => {
    const told: Array<string> = []
    const windows = await Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(
          limiterIn({ url: "redis://127.0.0.1:1", insuranceFor: insuranceTelling(told), timeoutMillis: 100 }),
          (limiter) => Effect.forEach([1, 2, 3], () => limiter.hit("alone", 2, MINUTE))
        )
      )
    )
    expect(windows.map((window) => window.used)).toEqual([1, 2, 3])
    expect(told).toEqual(["alone", "alone", "alone"])
  })
})
