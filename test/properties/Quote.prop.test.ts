/** Properties of quotes over generated parameter sets and party lists. */
import { Examples, QuotingService } from "@kasko/core"
import { ProductCatalogue } from "@kasko/core/actuarial"

/** The ids of a parameter's options in the leasing product's document. */
const optionsOf = (name: string): ReadonlyArray<string> =>
  ProductCatalogue.productDefinition("insurance-car-leasing")!
    .parameters.find((parameter) => parameter.name === name)!
    .options!.map((option) => option.id)
import { Effect, Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { runOnMemoryEngine } from "../support.js"

// spec §2.4: the response names shown, the irregular standalone Extended one included
const SPECIFIED_PRODUCT_NAMES: Record<string, string> = {
  "insurance-car-leasing standard": "private-insurance-car-leasing",
  "insurance-car-leasing extended": "business-insurance-car-leasing",
  "insurance-car-standalone standard": "private-insurance-car-standalone",
  "insurance-car-standalone extended": "business-car-insurance-standalone"
}

const ROLES = ["policy_holder", "vehicle_user", "vehicle_owner"] as const
type Role = (typeof ROLES)[number]

const PERSON = { cpr_number: "0101901234", first_name: "Ida", last_name: "Ærø" }
const ORGANIZATION = { name: "Partner ApS", cvr_number: "12345682" }

const parameterSets = fc.record({
  payments_per_year: fc.constantFrom("1", "12"),
  policy_holder: fc.constantFrom(...optionsOf("policy_holder")),
  vehicle_type: fc.constantFrom(...optionsOf("vehicle_type")),
  vehicle_user: fc.constantFrom(...optionsOf("vehicle_user")),
  vehicle_owner: fc.constantFrom(...optionsOf("vehicle_owner")),
  vehicle_usage: fc.constantFrom(...optionsOf("vehicle_usage")),
  vehicle_price: fc.integer({ min: 1_000, max: 10_000_000 }).map(String)
})

type GeneratedParty = Partial<Record<Role, boolean>> & { person?: typeof PERSON; organization?: typeof ORGANIZATION }

const omitUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T

const party: fc.Arbitrary<GeneratedParty> = fc
  .record({
    policy_holder: fc.option(fc.boolean(), { nil: undefined }),
    vehicle_user: fc.option(fc.boolean(), { nil: undefined }),
    vehicle_owner: fc.option(fc.boolean(), { nil: undefined }),
    person: fc.option(fc.constant(PERSON), { nil: undefined }),
    organization: fc.option(fc.constant(ORGANIZATION), { nil: undefined })
  })
  .map((generated) => omitUndefined(generated) as GeneratedParty)

/** Parties built to fit the parameters, so that accepted requests are common too. */
const fittingParties = (parameters: Record<Role, string>): Array<GeneratedParty> =>
  ROLES.map((role) => ({ [role]: true, [parameters[role]]: parameters[role] === "person" ? PERSON : ORGANIZATION }))

/** The role rules of DESIGN §2, stated independently of the implementation. */
const rolesHold = (parameters: Record<Role, string>, parties: ReadonlyArray<GeneratedParty>): boolean =>
  parameters.vehicle_owner === "organization" &&
  parties.every(
    (p) => ROLES.some((role) => p[role] === true) && (p.person !== undefined || p.organization !== undefined)
  ) &&
  ROLES.every(
    (role) =>
      parties.some((p) => p[role] === true) &&
      parties
        .filter((p) => p[role] === true)
        .every((p) => p[parameters[role] as "person" | "organization"] !== undefined)
  )

const runQuote = (request: unknown) =>
  runOnMemoryEngine(Effect.result(QuotingService.createQuote("partner-a", request)))

const runOffer = (request: unknown) => runOnMemoryEngine(QuotingService.createOffer(request))

describe("quote properties", () => {
  it("accepts a quote exactly when the role rules hold", async () => {
    const outcomes = { accepted: 0, rejected: 0 }
    await fc.assert(
      fc.asyncProperty(
        parameterSets,
        fc.boolean(),
        fc.array(party, { minLength: 1, maxLength: 4 }),
        async (parameters, fit, generated) => {
          const parties = fit ? fittingParties(parameters) : generated
          const request = Examples.quoteRequest(parameters)
          const outcome = await runQuote({ ...request, policy: { ...request.policy, parties } })
          const expected = rolesHold(parameters, parties)
          outcomes[expected ? "accepted" : "rejected"]++
          if (expected) {
            expect(Result.isSuccess(outcome)).toBe(true)
          } else {
            expect(Result.isFailure(outcome) && outcome.failure._tag).toBe("ConstraintViolation")
          }
        }
      ),
      { numRuns: 300 }
    )
    // both sides of the equivalence were exercised
    expect(outcomes.accepted).toBeGreaterThan(30)
    expect(outcomes.rejected).toBeGreaterThan(30)
  })

  it("prices a quote as the offer for the same parameters: annually for one payment, monthly for twelve", async () => {
    await fc.assert(
      fc.asyncProperty(
        parameterSets.map((parameters) => ({ ...parameters, vehicle_owner: "organization" })),
        fc.constantFrom(...ProductCatalogue.PRODUCT_NAMES),
        fc.constantFrom(...ProductCatalogue.FEATURE_NAMES),
        async (parameters, product, feature) => {
          const offer = await runOffer(Examples.offerRequest(parameters, product, feature))
          const quote = await runQuote(Examples.quoteRequest(parameters, product, feature))
          const amount = Result.getOrThrow(quote).price.amount
          expect(amount).toBe(parameters.payments_per_year === "1" ? offer.price.annually : offer.price.monthly)
          expect(Result.getOrThrow(quote).policies[0]!.coverages).toEqual(offer.policies[0]!.coverages)
        }
      ),
      { numRuns: 100 }
    )
  })

  it("names the quoted product by product and variant as spec §2.4 shows (private-… for Standard, business-… for Extended)", async () => {
    await fc.assert(
      fc.asyncProperty(
        parameterSets.map((parameters) => ({ ...parameters, vehicle_owner: "organization" })),
        fc.constantFrom(...ProductCatalogue.PRODUCT_NAMES),
        async (parameters, product) => {
          const quote = Result.getOrThrow(await runQuote(Examples.quoteRequest(parameters, product)))
          const standard =
            parameters.policy_holder === "person" &&
            parameters.vehicle_user === "person" &&
            parameters.vehicle_usage === "privat_person_koersel"
          expect(quote.product.product_name).toBe(
            SPECIFIED_PRODUCT_NAMES[`${product} ${standard ? "standard" : "extended"}`]
          )
          expect(quote.policies[0]!.insurer !== undefined).toBe(standard)
        }
      ),
      { numRuns: 100 }
    )
  })
})
