/**
 * A key past its rate limit: a sandbox key waits `sandboxRefusalPauseMillis` for its 429 (a partner's test suite in
 * a loop is slowed, holding no CPU), a production key is refused at once. Time is the TestClock's: nothing here
 * waits on the wall clock.
 */
import { Authentication, RateLimiter } from "@kasko/core"
import { Effect, Exit, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { admit, type AdmissionSettings } from "../src/Admission.js"
import type { RequestRefused } from "../src/Answers.js"

const SETTINGS: AdmissionSettings = {
  requestsPerMinute: 100,
  sandboxRequestsPerMinute: 10,
  sandboxRefusalPauseMillis: 500,
  failedAuthenticationsPerMinute: 20,
  documentsPerMinute: 60,
  tracing: false
}

/** Services where the credentials are `principal`'s and every key's window is spent. */
const spent = (principal: Authentication.Principal) =>
  Layer.mergeAll(
    Layer.succeed(Authentication.Authentication, { authenticate: () => Effect.succeed(principal) }),
    Layer.succeed(RateLimiter.RateLimiter, {
      hit: (_key, limit) => Effect.succeed({ limit, used: limit + 1, resetsAt: 60_000 }),
      peek: (_key, limit) => Effect.succeed({ limit, used: limit + 1, resetsAt: 60_000 })
    })
  )

const caller = { headers: { authorization: "Bearer token", "ocp-apim-subscription-key": "key" }, address: "a" }

/** Admits the caller in a fiber; answers whether it has ended after `elapsed` ms of the TestClock, and how. */
const refusalAfter = (principal: Authentication.Principal, elapsed: ReadonlyArray<number>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(
        admit(caller, "offers:create", false, SETTINGS, (effect) => effect).pipe(Effect.provide(spent(principal)))
      )
      const ended: Array<boolean> = []
      for (const millis of elapsed) {
        yield* TestClock.adjust(millis)
        ended.push(fiber.pollUnsafe() !== undefined)
      }
      const exit = yield* Fiber.await(fiber)
      const refused = Exit.isFailure(exit) ? (exit.cause.reasons[0] as { error?: RequestRefused }).error : undefined
      return { ended, status: refused?.answer.problem.status }
    }).pipe(Effect.provide(TestClock.layer()))
  )

describe("a key past its rate limit", () => {
  it("waits 500 ms for its 429 when it is a sandbox key", async () => {
    const sandbox = { partnerId: "sandbox:partner-a", rateLimitKey: "sandbox:ksk_a", environment: "sandbox" as const }
    expect(await refusalAfter(sandbox, [0, 499, 1])).toEqual({ ended: [false, false, true], status: 429 })
  })

  it("is refused at once when it is a production key", async () => {
    const production = { partnerId: "partner-a", rateLimitKey: "ksk_a" }
    expect(await refusalAfter(production, [0])).toEqual({ ended: [true], status: 429 })
  })
})
