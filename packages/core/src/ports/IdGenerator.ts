/**
 * The id port: quote ids, policy and quote numbers, webhook subscription ids
 * and their signing secrets — in the formats of `quote/QuoteIdentifiers.ts`.
 * Randomness is injected, so the core stays pure.
 * @module
 */
import { Clock, Context, Effect, Layer, Ref } from "effect"
import {
  groupsOfFour,
  newPolicyNumber,
  newQuoteNumber,
  signingSecretOf,
  uuidV7,
  withCheckDigit
} from "../quote/QuoteIdentifiers.js"

/**
 * The IdGenerator port: new quote ids, policy and quote numbers, subscription ids and signing secrets. Provide
 * `layerFromRandomBytes` in a service, `layerSequential` in a test.
 */
export class IdGenerator extends Context.Service<
  IdGenerator,
  {
    readonly quoteId: Effect.Effect<string>
    readonly policyNumber: Effect.Effect<string>
    readonly quoteNumber: Effect.Effect<string>
    /** `whk_` and a UUID v7. */
    readonly subscriptionId: Effect.Effect<string>
    /** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
    readonly signingSecret: Effect.Effect<string>
  }
>()("@kasko/core/IdGenerator") {}

/** Ids from a source of random bytes (the server passes node:crypto's randomBytes). */
export const layerFromRandomBytes = (randomBytes: (size: number) => Uint8Array): Layer.Layer<IdGenerator> =>
  Layer.succeed(IdGenerator, {
    quoteId: Effect.map(Clock.currentTimeMillis, (now) => uuidV7(now, randomBytes(10))),
    policyNumber: Effect.sync(() => newPolicyNumber(randomBytes)),
    quoteNumber: Effect.sync(() => newQuoteNumber(randomBytes)),
    subscriptionId: Effect.map(Clock.currentTimeMillis, (now) => `whk_${uuidV7(now, randomBytes(10))}`),
    signingSecret: Effect.sync(() => signingSecretOf(randomBytes(32)))
  })

/** Deterministic ids for tests and demos: the n-th id of each kind is derived from n. */
export const layerSequential: Layer.Layer<IdGenerator> = Layer.effect(
  IdGenerator,
  Effect.map(Ref.make(0), (counter) => {
    const next = Ref.updateAndGet(counter, (n) => n + 1)
    return {
      quoteId: Effect.map(next, (n) => `00000000-0000-7000-8000-${String(n).padStart(12, "0")}`),
      policyNumber: Effect.map(next, (n) => withCheckDigit(String(100_000_000 + n))),
      quoteNumber: Effect.map(next, (n) => groupsOfFour(withCheckDigit(String(100_000_000_000_000 + n)))),
      subscriptionId: Effect.map(next, (n) => `whk_00000000-0000-7000-8000-${String(n).padStart(12, "0")}`),
      signingSecret: Effect.map(next, (n) => signingSecretOf(new Uint8Array(32).fill(n % 256)))
    }
  })
)
