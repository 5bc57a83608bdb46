// Core section: offers priced per second through the public API — the plain function
// (Pricing.priceOffer) and the Effect programs (QuotingService.createOffer) — with the compiled
// tariff and with json-rules-engine, against the hand-written limit; the sides interleaved in rounds,
// medians.
import { Examples, QuotingService, TariffBook } from "@kasko/core"
import { Pricing, TariffDocuments } from "@kasko/core/actuarial"
import { ManagedRuntime, Result } from "effect"
import { isDeepStrictEqual } from "node:util"
import { handwrittenOffer } from "./handwrittenOffer.mjs"
import { median } from "./http.mjs"

/** 512 different offer requests, the same every run. */
const requests = (() => {
  let seed = 20261122
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
  const pick = (values) => values[Math.floor(random() * values.length)]
  return Array.from({ length: 512 }, () => {
    const parameters = Examples.standardParameters({
      payments_per_year: pick(["1", "12"]),
      policy_holder: pick(["person", "person", "organization"]),
      vehicle_user: pick(["person", "person", "organization"]),
      vehicle_type: pick(["personbil", "varevogn"]),
      vehicle_usage: pick([
        "privat_person_koersel",
        "privat_person_koersel",
        "godstransport",
        "godstransport_erhverv",
        "godstransport_halv_omsaetning",
        "godstransport_privat/erhverv"
      ]),
      vehicle_price: String(1_000 + Math.floor(random() * 1_500_000)),
      ...(random() < 0.6 ? { youngest_user_age: String(17 + Math.floor(random() * 60)) } : {})
    })
    return Examples.offerRequest(
      parameters,
      pick(["insurance-car-leasing", "insurance-car-standalone"]),
      pick(["standard", "premium"])
    )
  })
})()

const ROUNDS = 5
const SECONDS_PER_ROUND = 0.8

/** Operations per second of `operation` over the requests, for about `seconds`. */
const throughput = async (operation, seconds) => {
  for (let index = 0; index < 2_000; index++) await operation(requests[index % requests.length])
  let count = 0
  const started = process.hrtime.bigint()
  const budget = BigInt(Math.round(seconds * 1e9))
  while (process.hrtime.bigint() - started < budget) {
    for (let batch = 0; batch < 256; batch++) await operation(requests[count++ % requests.length])
  }
  return count / (Number(process.hrtime.bigint() - started) / 1e9)
}

export const runCoreBench = async () => {
  const compiled = ManagedRuntime.make(TariffBook.shipped)
  const interpreted = ManagedRuntime.make(
    TariffBook.layer(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS, "json-rules-engine")
  )
  try {
    // the three must agree before their speed means anything
    for (const request of requests) {
      const reference = compiled.runSync(QuotingService.createOffer(request))
      if (!isDeepStrictEqual(reference, handwrittenOffer(request)))
        throw new Error(`the hand-written offer differs for ${JSON.stringify(request)}`)
      if (!isDeepStrictEqual(reference, await interpreted.runPromise(QuotingService.createOffer(request))))
        throw new Error("the interpreter's offer differs")
    }
    const tariffs = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)
    const today = new Date().toISOString().slice(0, 10)
    for (const request of requests) {
      if (
        !isDeepStrictEqual(
          Result.getOrThrow(Pricing.priceOffer(tariffs, request, today)),
          compiled.runSync(QuotingService.createOffer(request))
        )
      )
        throw new Error("the plain function's offer differs")
    }
    const sides = [
      ["hand-written plain function (the limit)", (request) => handwrittenOffer(request)],
      [
        "compiled tariff, Pricing.priceOffer (plain function)",
        (request) => Pricing.priceOffer(tariffs, request, today)
      ],
      [
        "compiled tariff, createOffer (Effect, runSync)",
        (request) => compiled.runSync(QuotingService.createOffer(request))
      ],
      [
        "compiled tariff, createOffer (Effect, runPromise)",
        (request) => compiled.runPromise(QuotingService.createOffer(request))
      ],
      [
        "json-rules-engine, createOffer (Effect, runPromise)",
        (request) => interpreted.runPromise(QuotingService.createOffer(request))
      ]
    ]
    // interleaved rounds, the order turned each round, medians: the machine's drift hits every side alike
    const runs = sides.map(() => [])
    for (let round = 0; round < ROUNDS; round++) {
      const order = sides.map((_, index) => index)
      if (round % 2 === 1) order.reverse()
      for (const index of order) runs[index].push(await throughput(sides[index][1], SECONDS_PER_ROUND))
    }
    const rows = sides.map(([pricing], index) => ({ pricing, offers_per_second: median(runs[index]) }))
    const [limit, , , , interpreter] = rows
    return rows.map((row) => ({
      ...row,
      microseconds_per_offer: 1e6 / row.offers_per_second,
      vs_hand_written: row.offers_per_second / limit.offers_per_second,
      vs_json_rules_engine: row.offers_per_second / interpreter.offers_per_second
    }))
  } finally {
    await compiled.dispose()
    await interpreted.dispose()
  }
}
