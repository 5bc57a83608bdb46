/** Stored quotes made by the real engine, for storage tests. */
import { Examples, IdGenerator, QuoteStore, QuotingService, TariffBook } from "@kasko/core"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"

type StoredQuote = QuoteStore.StoredQuote

/** A QuoteStore that only remembers what it was asked to insert. */
const capturingStore = (captured: Array<StoredQuote>) =>
  Layer.succeed(QuoteStore.QuoteStore, {
    insert: (quote) => Effect.sync(() => void captured.push(quote)),
    insertIdempotent: (quote) =>
      Effect.sync(() => {
        captured.push(quote)
        return Option.none()
      }),
    find: () => Effect.succeed(Option.none()),
    findWithoutWorksheet: () => Effect.succeed(Option.none()),
    markActivated: () => Effect.succeed(Option.none()),
    purge: () => Effect.succeed(0),
    listPortfolio: () => Effect.succeed([]),
    checkWritable: Effect.void
  })

const everyPartyField = () => {
  const request = Examples.quoteRequest(
    Examples.standardParameters({ payments_per_year: "12", youngest_user_birthdate: "2001-05-17" })
  )
  const [person] = request.policy.parties
  return {
    ...request,
    policy: {
      ...request.policy,
      parties: [
        {
          ...person!,
          address: { ...person!.address!, protected: true },
          person: { cpr_number: "1705014321", first_name: "Åse Ærtebølle", last_name: "Øster-Ødegård" }
        },
        ...request.policy.parties.slice(1)
      ]
    }
  }
}

/** Quotes as the engine stores them: Standard with every party field and Danish letters, Extended, both products. */
export const makeFixtures = (): Promise<ReadonlyArray<StoredQuote>> => {
  const captured: Array<StoredQuote> = []
  const requests = [
    ["partner-a", everyPartyField()],
    [
      "partner-a",
      Examples.quoteRequest(
        Examples.standardParameters({ policy_holder: "organization", vehicle_usage: "godstransport_privat/erhverv" }),
        "insurance-car-standalone",
        "premium"
      )
    ],
    [
      "partner-b",
      Examples.quoteRequest(
        Examples.standardParameters({ vehicle_user: "organization" }),
        "insurance-car-leasing",
        "premium"
      )
    ]
  ] as const
  return Effect.runPromise(
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-03-02T09:00:00.000Z"))
      for (const [partner, request] of requests) {
        yield* QuotingService.createQuote(partner, request)
        yield* TestClock.adjust(1_000)
      }
      return captured
    }).pipe(
      Effect.provide(Layer.mergeAll(capturingStore(captured), IdGenerator.layerSequential, TariffBook.shipped)),
      Effect.provide(TestClock.layer())
    )
  )
}

/** The fixture as a distinct quote: its own id, number and creation time. */
export const variantOf = (fixture: StoredQuote, index: number, overrides: Partial<StoredQuote> = {}): StoredQuote => {
  const quoteId = `0190a000-0000-7000-8000-${String(index).padStart(12, "0")}`
  return {
    ...fixture,
    quote_id: quoteId,
    quote_number: `9${String(index).padStart(15, "0")}`.replace(/(\d{4})(?=\d)/g, "$1 "),
    quote: { ...fixture.quote, quote_id: quoteId },
    ...overrides
  }
}
