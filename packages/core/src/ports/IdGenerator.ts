/**
 * The id port: quote ids (UUID v7, time-ordered for index locality), policy
 * numbers and quote numbers (digit strings with a Luhn check digit), webhook
 * subscription ids and their signing secrets. The core holds the formats;
 * randomness is injected, so the core stays pure.
 */
import { Clock, Context, Effect, Layer, Ref } from "effect"

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

const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes))

/** Luhn check digit of a digit string. */
export const luhnCheckDigit = (digits: string): string => {
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    const digit = Number(digits[digits.length - 1 - index])
    const weighted = index % 2 === 0 ? digit * 2 : digit
    sum += weighted > 9 ? weighted - 9 : weighted
  }
  return String((10 - (sum % 10)) % 10)
}

/** True when the last digit is the Luhn check digit of the others. */
export const hasValidCheckDigit = (value: string): boolean =>
  /^\d{2,}$/.test(value) && luhnCheckDigit(value.slice(0, -1)) === value.slice(-1)

const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")

/** UUID v7 (RFC 9562) from a millisecond timestamp and 10 random bytes. */
export const uuidV7 = (epochMillis: number, random: Uint8Array): string => {
  const bytes = new Uint8Array(16)
  let time = epochMillis
  for (let index = 5; index >= 0; index--) {
    bytes[index] = time % 256
    time = Math.floor(time / 256)
  }
  bytes.set(random.subarray(0, 10), 6)
  bytes[6] = 0x70 | (bytes[6]! & 0x0f)
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const text = hex(bytes)
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`
}

const UUID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** True for a UUID in its canonical lower-case form (quote ids). */
export const isQuoteId = (value: string): boolean => UUID_FORM.test(value)

/** `count` random decimal digits, the first never 0, drawn without modulo bias. */
const randomDigits = (count: number, randomBytes: (size: number) => Uint8Array): string => {
  let digits = ""
  while (digits.length < count) {
    for (const byte of randomBytes(count * 2)) {
      if (byte >= 250) continue
      const digit = byte % 10
      if (digits.length === 0 && digit === 0) continue
      digits += String(digit)
      if (digits.length === count) break
    }
  }
  return digits
}

const withCheckDigit = (digits: string): string => digits + luhnCheckDigit(digits)

/** Prints a quote number in groups of four digits. */
export const groupsOfFour = (digits: string): string => digits.replace(/(\d{4})(?=\d)/g, "$1 ")

/** Ids from a source of random bytes (the server passes node:crypto's randomBytes). */
export const layerFromRandomBytes = (randomBytes: (size: number) => Uint8Array): Layer.Layer<IdGenerator> =>
  Layer.succeed(IdGenerator, {
    quoteId: Effect.map(Clock.currentTimeMillis, (now) => uuidV7(now, randomBytes(10))),
    policyNumber: Effect.sync(() => withCheckDigit(randomDigits(9, randomBytes))),
    quoteNumber: Effect.sync(() => groupsOfFour(withCheckDigit(randomDigits(15, randomBytes)))),
    subscriptionId: Effect.map(Clock.currentTimeMillis, (now) => `whk_${uuidV7(now, randomBytes(10))}`),
    signingSecret: Effect.sync(() => `whsec_${base64(randomBytes(32))}`)
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
      signingSecret: Effect.map(next, (n) => `whsec_${base64(new Uint8Array(32).fill(n % 256))}`)
    }
  })
)
