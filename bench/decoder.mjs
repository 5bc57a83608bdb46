// Decoding a valid request body with its Schema, as the request path does (`Decoding.decodeAll`: kasko's text
// check, then Effect 4's Schema parser with every violation named), interpreted, and with Effect's
// SchemaJITCompiler enabled before any Schema is used — in a child process of its own each round, since enabling
// it is global. Interleaved rounds, medians: what decoding costs a request, and whether the JIT would lower it.
import { Examples } from "@kasko/core"
import { Decoding, Offer, QuoteRequest } from "@kasko/core/transport"
import { Result } from "effect"
import { execFileSync } from "node:child_process"

const ROUNDS = Number(process.env.KASKO_BENCH_ROUNDS ?? 5)
const CALLS = 20_000
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

/** Every case decoded: microseconds per decode, after a warm-up and a check that it decodes. */
const decodingTimes = () =>
  CASES().map(({ name, schema, input }) => {
    const decode = (value) => Decoding.decodeAll(schema, value)
    if (Result.isFailure(decode(input))) throw new Error(`${name}: the example does not decode`)
    timeOf(decode, input)
    return timeOf(decode, input)
  })

export const runDecoderBench = () => {
  const cases = CASES()
  const times = cases.map(() => ({ interpreted: [], jit: [] }))
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, time] of decodingTimes().entries()) times[index].interpreted.push(time)
    const jit = JSON.parse(
      execFileSync(process.execPath, ["--import", JIT_ENABLED, new URL(import.meta.url).pathname, "--jit"], {
        encoding: "utf8"
      })
    )
    for (const [index, time] of jit.entries()) times[index].jit.push(time)
  }
  return cases.map(({ name }, index) => ({
    request: name,
    schema_interpreted_us: median(times[index].interpreted),
    schema_jit_us: median(times[index].jit),
    jit_vs_interpreted: median(times[index].jit) / median(times[index].interpreted)
  }))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === "--jit") console.log(JSON.stringify(decodingTimes()))
  else console.table(runDecoderBench())
}
