/**
 * The answers' encoder writes what Effect's encoder of the same Schema writes, byte for byte: the properties the
 * Schema names in its order, a record's every key, nothing the Schema does not name; and it leaves to Effect what
 * transforms. (The golden record, test/golden, holds the whole service's answers to the same.)
 */
import { Examples } from "@kasko/core"
import { Offer, ProductCatalogue, Quote } from "@kasko/core/transport"
import { Option, Schema, SchemaGetter, SchemaTransformation } from "effect"
import { describe, expect, it } from "vitest"
import { answerEncoderOf } from "../src/AnswerEncoding.js"
import { operationsOf } from "../src/Operations.js"

const byEffect = (schema: Schema.Top, value: unknown): string =>
  JSON.stringify(Schema.encodeUnknownSync(schema as Schema.Codec<unknown, unknown>)(value))
const byProjection = (schema: Schema.Top, value: unknown): string => JSON.stringify(answerEncoderOf(schema)(value))

const QUOTE = Examples.quoteAnswer()
const ACTIVATED = Examples.activatedQuoteAnswer()
const OFFER = Examples.priceOfferAnswer()

describe("the answers' encoder", () => {
  it("answers every operation's examples as Effect's encoder of its answers does", () => {
    let compared = 0
    for (const operation of operationsOf(ProductCatalogue.shipped))
      for (const { value } of operation.responseExamples)
        for (const schema of operation.responses) {
          if (!Schema.is(schema as Schema.Codec<unknown, unknown>)(value)) continue
          expect(byProjection(schema, value), operation.operationId).toBe(byEffect(schema, value))
          compared += 1
        }
    expect(compared).toBeGreaterThanOrEqual(10)
  })

  it.each([
    ["a quote", Quote.QUOTE_ANSWERS.Quote, QUOTE],
    ["an activated quote", Quote.QUOTE_ANSWERS.ActivatedQuote, ACTIVATED],
    ["an offer", Offer.PriceOfferAnswer, OFFER]
  ] as const)("writes %s as Effect's encoder does", (_name, schema, value) => {
    expect(byProjection(schema, value)).toBe(byEffect(schema, value))
  })

  it("leaves out what the Schema does not name, at every depth, as Effect's encoder does", () => {
    const [policy, ...others] = QUOTE.policies
    const withExtras = {
      ...QUOTE,
      retired_field: "kept from an older version",
      price: { ...QUOTE.price, internal: 1 },
      policies: [{ ...policy!, note: "not for the partner" }, ...others]
    }
    const written = byProjection(Quote.QUOTE_ANSWERS.Quote, withExtras)
    expect(written).toBe(byEffect(Quote.QUOTE_ANSWERS.Quote, withExtras))
    expect(written).toBe(JSON.stringify(QUOTE))
  })

  it("leaves out optional fields the value does not have, as Effect's encoder does", () => {
    const [policy, ...others] = QUOTE.policies
    const { vin: _vin, registration_number: _registration, ...vehicle } = policy!.insurable_object.vehicle
    const withoutThem = {
      ...QUOTE,
      policies: [{ ...policy!, insurable_object: { ...policy!.insurable_object, vehicle } }, ...others]
    }
    const written = byProjection(Quote.QUOTE_ANSWERS.Quote, withoutThem)
    expect(written).toBe(byEffect(Quote.QUOTE_ANSWERS.Quote, withoutThem))
    expect(written).not.toContain('"vin"')
  })

  it("keeps a record's every key in its order, __proto__ too, without touching a prototype", () => {
    const parameters = JSON.parse('{"vehicle_price":"350000","__proto__":"not a prototype","payments_per_year":"12"}')
    const offer = { ...OFFER, product: { ...OFFER.product, parameters } }
    const encoded = answerEncoderOf(Offer.PriceOfferAnswer)(offer) as { product: { parameters: object } }
    expect(Object.getPrototypeOf(encoded.product.parameters)).toBe(Object.prototype)
    expect(JSON.stringify(encoded)).toBe(byEffect(Offer.PriceOfferAnswer, offer))
    expect(Object.keys(encoded.product.parameters)).toEqual(["vehicle_price", "__proto__", "payments_per_year"])
  })

  it("leaves what transforms to Effect's encoder: a number written as a string, a union of structs, a class", () => {
    class Stamp extends Schema.Class<Stamp>("Stamp")({ at: Schema.NumberFromString }) {}
    const schema = Schema.Struct({
      count: Schema.NumberFromString,
      shape: Schema.Union([
        Schema.Struct({ kind: Schema.Literal("circle"), radius: Schema.Number }),
        Schema.Struct({ kind: Schema.Literal("square"), side: Schema.NumberFromString })
      ]),
      stamps: Schema.Array(Stamp)
    })
    const value = { count: 3, shape: { kind: "square", side: 2, extra: true }, stamps: [new Stamp({ at: 5 })] }
    const written = byProjection(schema, value)
    expect(written).toBe(byEffect(schema, value))
    expect(JSON.parse(written)).toEqual({ count: "3", shape: { kind: "square", side: "2" }, stamps: [{ at: "5" }] })
  })

  describe("writes what Effect's encoder writes where a projection could go wrong", () => {
    const Named = Schema.Struct({ a: Schema.String })
    const lowerCased = Schema.String.pipe(
      Schema.decodeTo(
        Schema.String,
        SchemaTransformation.transform({ decode: (key) => key.toUpperCase(), encode: (key) => key.toLowerCase() })
      )
    )
    const blankDropped = Schema.optionalKey(Schema.String).pipe(
      Schema.encodeTo(Schema.optionalKey(Schema.String), {
        decode: SchemaGetter.passthrough(),
        encode: SchemaGetter.transformOptional((given) => Option.filter(given, (text) => text !== ""))
      })
    )
    const filledIn = Schema.optionalKey(Schema.String).pipe(
      Schema.encodeTo(Schema.String, {
        decode: SchemaGetter.passthrough(),
        encode: SchemaGetter.transformOptional((given) => Option.orElse(given, () => Option.some("filled")))
      })
    )
    const Points = Schema.Array(Schema.Struct({ x: Schema.Number }))
    const withOwnMap = Object.defineProperty([{ x: 1 }], "map", { value: () => "not the array" })
    class Getter {
      get a() {
        return "from a getter"
      }
    }
    it.each<readonly [string, Schema.Top, unknown]>([
      ["an inherited property", Named, Object.create({ a: "inherited" })],
      ["a property a getter gives", Named, new Getter()],
      ["a record whose keys have a check", Schema.Record(Schema.NonEmptyString, Schema.Number), { "": 1, a: 2 }],
      ["a record whose keys are encoded", Schema.Record(lowerCased, Schema.Number), { AB: 1 }],
      [
        "a field an Option encodes away",
        Schema.Struct({ a: Schema.OptionFromOptionalKey(Schema.String) }),
        { a: Option.none() }
      ],
      ["a field whose encoding drops its key", Schema.Struct({ a: blankDropped }), { a: "" }],
      ["a field whose encoding adds its key", Schema.Struct({ a: filledIn }), {}],
      ["an array with a map of its own", Points, withOwnMap]
    ])("%s", (_case, schema, value) => {
      expect(byProjection(schema, value)).toBe(byEffect(schema, value))
    })
  })
})
