// Decoding a valid request body three ways, interleaved rounds, medians: kasko's
// CompiledDecoder (what the request path runs) and Effect 4's Schema parser as shipped
// (interpreted), in this process; and the same parser with Effect's SchemaJITCompiler
// enabled before any Schema is used, in a child process of its own each round (enabling
// it here would change the interpreted side too). Each Effect side also runs kasko's text
// check (NFC, control characters), which the request path needs whichever parser decodes. Issue 27 asks whether Effect's compiled
// parser can replace ours; this section says by how much they differ on our requests.
import { Examples } from "@kasko/core"
import { Offer, QuoteRequest } from "@kasko/core/transport"
import { Result, SchemaParser } from "effect"
import { execFileSync } from "node:child_process"
import { decoderOf, REFUSED } from "../packages/core/dist/src/input/CompiledDecoder.js"
import { cleanText } from "../packages/core/dist/src/input/RequestText.js"

const ROUNDS = Number(process.env.KASKO_BENCH_ROUNDS ?? 5)
const CALLS = 20_000
const OPTIONS = { errors: "all", onExcessProperty: "error" }
// loaded by the child before any Schema exists, as the module asks
const JIT_ENABLED = import.meta.resolve("effect/schema/SchemaJITCompiler/enable")

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const timeOf = (decode, input) => {
  const started = process.hrtime.bigint()
  for (let call = 0; call < CALLS; call += 1) decode(input)
  return Number(process.hrtime.bigint() - started) / 1000 / CALLS
}

const CASES = () => [
  { name: "offer request", schema: Offer.OfferRequest, input: Examples.offerRequest() },
  { name: "quote request", schema: QuoteRequest.QuoteRequest, input: Examples.quoteRequest() }
]

/** Effect's parser on every case: microseconds per decode, after a warm-up and a check that it decodes as kasko's does. */
const effectParserTimes = () =>
  CASES().map(({ name, schema, input }) => {
    const parse = SchemaParser.decodeUnknownResult(schema, OPTIONS)
    const decode = (value) => Result.getOrThrow(parse(cleanText(value).input))
    if (JSON.stringify(decode(input)) !== JSON.stringify(decoderOf(schema)(input)))
      throw new Error(`${name}: Effect's parser decodes differently from kasko's`)
    timeOf(decode, input)
    return timeOf(decode, input)
  })

export const runDecoderBench = () => {
  const cases = CASES()
  const times = cases.map(() => ({ kasko: [], effect: [], effectJit: [] }))
  const kaskoSides = cases.map(({ name, schema, input }) => {
    const decode = decoderOf(schema)
    if (decode(input) === REFUSED) throw new Error(`${name}: kasko's decoder refused the example`)
    timeOf(decode, input)
    return decode
  })
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, { input }] of cases.entries()) times[index].kasko.push(timeOf(kaskoSides[index], input))
    for (const [index, time] of effectParserTimes().entries()) times[index].effect.push(time)
    const jit = JSON.parse(
      execFileSync(process.execPath, ["--import", JIT_ENABLED, new URL(import.meta.url).pathname, "--jit"], {
        encoding: "utf8"
      })
    )
    for (const [index, time] of jit.entries()) times[index].effectJit.push(time)
  }
  return cases.map(({ name }, index) => {
    const kasko = median(times[index].kasko)
    return {
      request: name,
      kasko_compiled_us: kasko,
      effect_interpreted_us: median(times[index].effect),
      effect_jit_us: median(times[index].effectJit),
      effect_interpreted_vs_kasko: median(times[index].effect) / kasko,
      effect_jit_vs_kasko: median(times[index].effectJit) / kasko
    }
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === "--jit") console.log(JSON.stringify(effectParserTimes()))
  else console.table(runDecoderBench())
}
