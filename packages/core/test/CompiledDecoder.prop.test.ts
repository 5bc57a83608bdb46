/**
 * The compiled decoder answers as the Schema does: whatever it accepts, the
 * Schema (after text hygiene) accepts with the same value; whatever the Schema
 * accepts with clean text, it accepts too — so the fast path never lets
 * through, nor sends the long way, a request the Schema would decide otherwise.
 * Requests are the examples with random damage: values swapped for odd ones,
 * fields removed, unknown fields added, text with hidden or decomposed letters.
 */
import { Result, type Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decoderOf, REFUSED } from "../src/input/CompiledDecoder.js"
import { decodeAll, decodeReporting } from "../src/input/Decoding.js"
import { offerRequest, quoteRequest } from "../src/Examples.js"
import { OfferRequest } from "../src/quote/Offer.js"
import { QuoteRequest } from "../src/quote/QuoteRequest.js"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const oddValues: ReadonlyArray<Json> = [
  "",
  " ",
  "   x  ",
  "x".repeat(300),
  "Søren",
  "Ka\u030Arsten", // å sent decomposed: normalised, then accepted
  "bell\u0007",
  "\u202Eevil",
  "\uD800",
  "1",
  "12",
  "17",
  "99",
  "100",
  "2030-04-01",
  "2001-02-29",
  "0101901234",
  "12345682",
  "TMBJB7NY5MF012345",
  "AB 12 345",
  "person",
  "organization",
  "standard",
  "extended",
  "insurance-car-leasing",
  0,
  8000,
  555,
  12.5,
  -1,
  true,
  false,
  null,
  [],
  {},
  [{ name: "standard" }]
]

/** Every path to a value inside `json`, the root excluded. */
const pathsOf = (json: Json, prefix: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> => {
  if (json === null || typeof json !== "object") return []
  const entries: Array<[string | number, Json]> = Array.isArray(json)
    ? (json as ReadonlyArray<Json>).map((item, index) => [index, item])
    : Object.entries(json as Record<string, Json>)
  return entries.flatMap(([key, value]) => [[...prefix, key], ...pathsOf(value, [...prefix, key])])
}

type Damage =
  | { readonly kind: "set"; readonly path: number; readonly value: Json }
  | { readonly kind: "remove"; readonly path: number }
  | { readonly kind: "add"; readonly path: number; readonly key: string; readonly value: Json }

const damageOf = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant("set" as const), path: fc.nat(), value: fc.constantFrom(...oddValues) })
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("remove" as const), path: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      path: fc.nat(),
      key: fc.constantFrom("colour", "__proto__", "name", "Navn\u0301", "bell\u0007"),
      value: fc.constantFrom(...oddValues)
    })
  }
)

/** `json` with the damage done, on a copy. */
const damaged = (json: Json, damages: ReadonlyArray<Damage>): unknown => {
  const copy = JSON.parse(JSON.stringify(json)) as Record<string | number, unknown>
  for (const damage of damages) {
    const paths = pathsOf(copy as Json)
    if (paths.length === 0) break
    const path = paths[damage.path % paths.length]!
    const parent = path
      .slice(0, -1)
      .reduce<Record<string | number, unknown>>((value, key) => value[key] as Record<string | number, unknown>, copy)
    const last = path[path.length - 1]!
    if (damage.kind === "set") parent[last] = JSON.parse(JSON.stringify(damage.value))
    else if (damage.kind === "remove") {
      if (Array.isArray(parent)) parent.splice(last as number, 1)
      else delete parent[last]
    } else {
      const target = parent[last]
      if (typeof target === "object" && target !== null && !Array.isArray(target)) {
        Object.defineProperty(target, damage.key, {
          value: JSON.parse(JSON.stringify(damage.value)),
          enumerable: true,
          writable: true,
          configurable: true
        })
      }
    }
  }
  return copy
}

const agreesWithTheSchema = <A>(schema: Schema.Decoder<A>, example: Json) => {
  let accepted = 0
  let refused = 0
  fc.assert(
    fc.property(fc.array(damageOf, { minLength: 0, maxLength: 3 }), (damages) => {
      const input = damaged(example, damages)
      const fast = decoderOf(schema)(input)
      const reported = decodeReporting(schema, input)
      if (fast === REFUSED) {
        refused++
        expect(
          Result.isFailure(reported),
          `the Schema accepts what the compiled decoder refused: ${JSON.stringify(input)}`
        ).toBe(true)
      } else {
        accepted++
        expect(Result.getOrUndefined(reported)).toEqual(fast)
      }
      // and the entry point everyone calls answers as the Schema does
      expect(decodeAll(schema, input)).toEqual(reported)
    }),
    { numRuns: 2000 }
  )
  // both sides of the comparison were exercised
  expect(accepted).toBeGreaterThan(100)
  expect(refused).toBeGreaterThan(100)
}

describe("the compiled decoder", () => {
  it("decides quote requests as the Schema does", () => agreesWithTheSchema(QuoteRequest, quoteRequest() as Json))

  it("decides offer requests as the Schema does, with a quote's policy and agent carried along", () => {
    agreesWithTheSchema(OfferRequest, offerRequest() as Json)
    agreesWithTheSchema(OfferRequest, quoteRequest() as Json)
  })

  it("takes the example requests without the Schema, their text normalised", () => {
    expect(decoderOf(QuoteRequest)(quoteRequest())).not.toBe(REFUSED)
    const decomposed = JSON.parse(JSON.stringify(quoteRequest()).replace("Kierkegård", "Kierkega\u030Ard"))
    const fast = decoderOf(QuoteRequest)(decomposed)
    expect(fast).not.toBe(REFUSED)
    expect((fast as QuoteRequest).policy.parties[0]?.person?.last_name).toBe("Kierkegård")
  })

  it("refuses hidden characters, unknown fields and wrong types, leaving the report to the Schema", () => {
    const withBell = JSON.parse(JSON.stringify(quoteRequest()).replace("Aarhus C", "Aarhus\\u0007C"))
    expect(decoderOf(QuoteRequest)(withBell)).toBe(REFUSED)
    expect(decoderOf(QuoteRequest)({ ...quoteRequest(), colour: "red" })).toBe(REFUSED)
    expect(decoderOf(QuoteRequest)({ ...quoteRequest(), agent: "agent-7" })).toBe(REFUSED)
  })
})
