// Decoding a valid request body three ways, in one process, interleaved rounds, medians:
// kasko's CompiledDecoder (what the request path runs), Effect 4's Schema parser as
// shipped (interpreted), and the same parser with Effect's SchemaJITCompiler enabled on
// the Schema. Each side also runs kasko's text check (NFC, control characters), which the
// request path needs whichever parser decodes. Issue 27 asks whether Effect's compiled
// parser can replace ours; this section says by how much they differ on our requests.
import { Examples } from "@kasko/core"
import { Offer, QuoteRequest } from "@kasko/core/transport"
import { Result, SchemaParser } from "effect"
import { enable } from "effect/schema/SchemaJITCompiler"
import { decoderOf, REFUSED } from "../packages/core/dist/src/input/CompiledDecoder.js"
import { cleanText } from "../packages/core/dist/src/input/RequestText.js"

const ROUNDS = Number(process.env.KASKO_BENCH_ROUNDS ?? 5)
const CALLS = 20_000
const OPTIONS = { errors: "all", onExcessProperty: "error" }

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const sidesFor = (schema) => {
  const compiled = decoderOf(schema)
  const interpreted = SchemaParser.decodeUnknownResult(schema, OPTIONS)
  return {
    kasko: (input) => compiled(input),
    effect: (input) => Result.getOrThrow(interpreted(cleanText(input).input)),
    // set up below, after enabling the JIT on this Schema's AST
    effectJit: undefined
  }
}

const timeOf = (decode, inputs) => {
  const started = process.hrtime.bigint()
  for (let call = 0; call < CALLS; call += 1) decode(inputs[call % inputs.length])
  return Number(process.hrtime.bigint() - started) / 1000 / CALLS
}

export const runDecoderBench = () => {
  const cases = [
    { name: "offer request", schema: Offer.OfferRequest, inputs: [Examples.offerRequest()] },
    { name: "quote request", schema: QuoteRequest.QuoteRequest, inputs: [Examples.quoteRequest()] }
  ]
  const rows = []
  for (const { name, schema, inputs } of cases) {
    const sides = sidesFor(schema)
    enable(schema.ast)
    const jit = SchemaParser.decodeUnknownResult(schema, OPTIONS)
    sides.effectJit = (input) => Result.getOrThrow(jit(cleanText(input).input))
    // every side accepts every input and decodes it alike before it is timed
    for (const input of inputs) {
      const expected = JSON.stringify(sides.kasko(input))
      if (sides.kasko(input) === REFUSED) throw new Error(`${name}: kasko's decoder refused the example`)
      for (const side of ["effect", "effectJit"])
        if (JSON.stringify(sides[side](input)) !== expected) throw new Error(`${name}: ${side} decodes differently`)
    }
    const times = { kasko: [], effect: [], effectJit: [] }
    for (const side of Object.keys(times)) timeOf(sides[side], inputs) // warm-up
    for (let round = 0; round < ROUNDS; round += 1)
      for (const side of Object.keys(times)) times[side].push(timeOf(sides[side], inputs))
    const kasko = median(times.kasko)
    rows.push({
      request: name,
      kasko_compiled_us: kasko,
      effect_interpreted_us: median(times.effect),
      effect_jit_us: median(times.effectJit),
      effect_interpreted_vs_kasko: median(times.effect) / kasko,
      effect_jit_vs_kasko: median(times.effectJit) / kasko
    })
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(runDecoderBench())
