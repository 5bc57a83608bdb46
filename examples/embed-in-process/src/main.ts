#!/usr/bin/env node
/**
 * What a partner platform (a dealer's or leasing company's system) writes to
 * embed kasko in-process: no HTTP, no server — the engine is a library. It
 * uses only the public API of @kasko/core and @kasko/memory: first the Effect
 * API, then the promise facade for code that does not use Effect.
 */
import { Examples, IdGenerator, Kasko, QuotingService, TariffBook } from "@kasko/core"
import { MemoryQuoteStore } from "@kasko/memory"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"

const PARTNER = "bilhuset-oest"

// ids from the platform's own randomness; time from Effect's clock
const engine = Layer.mergeAll(MemoryQuoteStore.layer, IdGenerator.layerFromRandomBytes(randomBytes), TariffBook.shipped)

const print = (line: string) => process.stdout.write(`${line}\n`)

/** The Effect API: one program, composed and run with the engine's layers. */
const withEffect = Effect.gen(function* () {
  const product = yield* QuotingService.getProduct("insurance-car-leasing")
  print(
    `effect: product ${product.product_name} — ${product.parameters.length} parameters, features ${product.features.map((feature) => feature.name).join(", ")}`
  )
  const parameters = Examples.standardParameters({ vehicle_price: "350000", youngest_user_age: "23" })
  const offer = yield* QuotingService.createOffer(Examples.offerRequest(parameters))
  print(
    `effect: offer ${offer.price.annually} kr a year or ${offer.price.monthly} kr a month, ${offer.policies[0]!.coverages.length} coverages`
  )
  const quote = yield* QuotingService.createQuote(PARTNER, Examples.quoteRequest(parameters))
  print(
    `effect: quote ${quote.quote_id} for ${quote.price.amount} ${quote.price.currency}, policy ${quote.policies[0]!.policy_number}`
  )
  const retrieved = yield* QuotingService.getQuote(PARTNER, quote.quote_id)
  print(`effect: retrieved, ${retrieved.state}`)
  yield* QuotingService.activateQuote(PARTNER, quote.quote_id)
  const activated = yield* QuotingService.getQuote(PARTNER, quote.quote_id)
  if (activated.state === "activated") print(`effect: activated, quote number ${activated.quote.quote_number}`)
  const refused = yield* Effect.flip(
    QuotingService.createOffer(Examples.offerRequest({ ...parameters, vehicle_price: "500" }))
  )
  if (refused._tag === "ConstraintViolation")
    print(
      `effect: refused ${refused.violations.map((violation) => `${violation.field} ${violation.message}`).join("; ")}`
    )
})

/** The promise facade: the same engine for code that does not use Effect. */
const withPromises = async () => {
  const kasko = Kasko.make(Layer.merge(MemoryQuoteStore.layer, IdGenerator.layerFromRandomBytes(randomBytes)))
  try {
    const product = await kasko.getProduct("insurance-car-standalone")
    print(
      `promise: product ${product.product_name} — ${product.features[0]!.parameter_refs.length} parameters in its features`
    )
    const parameters = Examples.standardParameters({
      policy_holder: "organization",
      vehicle_type: "varevogn",
      payments_per_year: "12"
    })
    const offer = await kasko.createOffer(Examples.offerRequest(parameters, "insurance-car-standalone", "premium"))
    print(`promise: offer ${offer.price.annually} kr a year or ${offer.price.monthly} kr a month`)
    const quote = await kasko.createQuote(
      PARTNER,
      Examples.quoteRequest(parameters, "insurance-car-standalone", "premium")
    )
    print(
      `promise: quote ${quote.quote_id} for ${quote.price.amount} ${quote.price.currency} a month, product ${quote.product.product_name}`
    )
    await kasko.activateQuote(PARTNER, quote.quote_id)
    print(`promise: retrieved, ${(await kasko.getQuote(PARTNER, quote.quote_id)).state}`)
    try {
      await kasko.getQuote("another-partner", quote.quote_id)
    } catch (error) {
      print(`promise: another partner gets ${(error as { _tag: string })._tag}`)
    }
  } finally {
    await kasko.dispose()
  }
}

await Effect.runPromise(Effect.provide(withEffect, engine))
await withPromises()
