/** Test support: a fixed "now", request builders, and running core programs on a TestClock. */
import { Effect, Exit, Layer, TestClock, TestContext } from "effect"
import * as TariffBook from "../src/TariffBook.js"

/** The instant tests price at unless they move the clock: a Monday in 2026. */
export const NOW = "2026-03-02T09:00:00.000Z"
export const NOW_MILLIS = Date.parse(NOW)

export type Parameters = Record<string, string>

/** A complete Standard-variant parameter set (person, person, private driving). */
export const standardParameters = (overrides: Parameters = {}): Parameters => ({
  payments_per_year: "1",
  policy_holder: "person",
  vehicle_type: "personbil",
  vehicle_user: "person",
  vehicle_owner: "organization",
  vehicle_usage: "privat_person_koersel",
  vehicle_price: "200000",
  ...overrides
})

export const offerRequest = (
  parameters: Parameters,
  productName = "insurance-car-leasing",
  feature = "standard"
) => ({ product: { product_name: productName, parameters, features: [{ name: feature }] } })

/** A valid quote request whose parties fit the role parameters. */
export const quoteRequest = (
  parameters: Parameters = standardParameters(),
  productName = "insurance-car-leasing",
  feature = "standard"
) => {
  const personParty = {
    person: { cpr_number: "0101901234", first_name: "Søren", last_name: "Kierkegård" },
    phone: "+45 12 34 56 78",
    email: "soeren@example.dk",
    address: { street: "Æblevej", house_number: "7", floor: "2", door: "tv", postal_code: 8000, city: "Aarhus C" }
  }
  const organizationParty = { organization: { name: "Leasing Partner ApS", cvr_number: "12345682" } }
  const holderIsPerson = parameters["policy_holder"] === "person"
  const userIsPerson = parameters["vehicle_user"] === "person"
  const parties = [
    { ...personParty, policy_holder: holderIsPerson, vehicle_user: userIsPerson },
    { ...organizationParty, vehicle_owner: true, policy_holder: !holderIsPerson, vehicle_user: !userIsPerson }
  ]
  return {
    ...offerRequest(parameters, productName, feature),
    policy: {
      brand_id: "brand-1",
      external_reference: "lease-2026-0042",
      expected_effective_at: "2026-04-01",
      insurable_object: {
        vehicle: { make: "Škoda", model: "Enyaq", variant: "80 iV", vin: "TMBJB7NY5MF012345", registration_number: "AB 12 345" }
      },
      parties
    },
    agent: { user_id: "agent-7", organization: { name: "Bilhuset Øst A/S", cvr_number: "12345690", cvrp_number: "1012345678" } }
  }
}

/** Runs a program with the test clock set to `at`, giving its Exit. */
export const runExitAt = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  layer: Layer.Layer<R>,
  at: number = NOW_MILLIS
): Promise<Exit.Exit<A, E>> =>
  Effect.runPromiseExit(
    Effect.gen(function* () {
      yield* TestClock.setTime(at)
      return yield* effect
    }).pipe(Effect.provide(layer), Effect.provide(TestContext.TestContext))
  )

/** Runs a program at `at` that must succeed. */
export const runAt = async <A, E, R>(effect: Effect.Effect<A, E, R>, layer: Layer.Layer<R>, at: number = NOW_MILLIS): Promise<A> => {
  const exit = await runExitAt(effect, layer, at)
  if (Exit.isSuccess(exit)) return exit.value
  throw new Error(`expected success, got ${JSON.stringify(exit.cause)}`)
}

/** Runs a program at `at` that must fail, giving its error. */
export const failureAt = async <A, E, R>(effect: Effect.Effect<A, E, R>, layer: Layer.Layer<R>, at: number = NOW_MILLIS): Promise<E> => {
  const exit = await runExitAt(effect, layer, at)
  if (Exit.isFailure(exit) && exit.cause._tag === "Fail") return exit.cause.error
  throw new Error(`expected a failure, got ${JSON.stringify(exit)}`)
}

export const tariffs = TariffBook.shipped
