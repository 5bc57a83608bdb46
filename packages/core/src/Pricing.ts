/**
 * Pricing: the tariff in force on the pricing date prices a request through
 * its pricing plan, synchronously — plain functions an embedder can call
 * without Effect (`priceOffer`, `explainOffer`); the Effect API wraps them.
 * json-rules-engine, the tariff's reference interpreter, stays behind this
 * module (STYLE §6): it decides which rules fire for the workbench and the
 * differential tests, and the same plan folds what it fired.
 */
import { Either } from "effect"
import { Engine } from "json-rules-engine"
import type { CalendarDate } from "./CalendarDate.js"
import { TariffNotInForce, type ConstraintViolation } from "./Errors.js"
import { decodeOfferRequest, offerOf, type OfferRequest, type PriceOffer } from "./Offer.js"
import { youngestDriverAge, type ProductParameters } from "./Parameters.js"
import { planOf, type PriceComputation } from "./PricingPlan.js"
import type { FeatureName, ProductName } from "./ProductCatalogue.js"
import { chosenFeature, type ProductSelection } from "./ProductSelection.js"
import { worksheetOf, type PricingFacts, type RatingWorksheet } from "./RatingWorksheet.js"
import { tariffInForce, type Tariff } from "./Tariff.js"
import { deriveVariant } from "./Variant.js"

export type { PriceComputation } from "./PricingPlan.js"

/** What a price depends on, and nothing else. */
export interface PricingRequest {
  readonly product_name: ProductName
  readonly parameters: ProductParameters
  readonly feature: FeatureName
  readonly pricing_date: CalendarDate
}

/** The pricing request of a decoded product selection. */
export const pricingRequestOf = (selection: ProductSelection, pricingDate: CalendarDate): PricingRequest => ({
  product_name: selection.product_name,
  parameters: selection.parameters,
  feature: chosenFeature(selection),
  pricing_date: pricingDate
})

/** The facts the tariff's rules read, computed once so the rules need no fact callbacks. */
export const pricingFacts = (request: PricingRequest): PricingFacts => ({
  product_name: request.product_name,
  variant: deriveVariant(request.parameters),
  feature: request.feature,
  vehicle_type: request.parameters.vehicle_type,
  vehicle_usage: request.parameters.vehicle_usage,
  vehicle_price: request.parameters.vehicle_price,
  youngest_driver_age: youngestDriverAge(request.parameters, request.pricing_date) ?? null
})

/** Prices with one tariff version, its rules compiled: the service's way. */
export const priceWith = (tariff: Tariff, request: PricingRequest): PriceComputation => {
  const plan = planOf(tariff)
  const facts = pricingFacts(request)
  return plan.price(facts, request.pricing_date, plan.fire(facts))
}

/** Prices with the product's tariff in force on the pricing date. */
export const price = (tariffs: ReadonlyArray<Tariff>, request: PricingRequest): Either.Either<PriceComputation, TariffNotInForce> => {
  const tariff = tariffInForce(tariffs, request.product_name, request.pricing_date)
  return tariff === undefined
    ? Either.left(new TariffNotInForce({ product_name: request.product_name, pricing_date: request.pricing_date }))
    : Either.right(priceWith(tariff, request))
}

/**
 * The rules json-rules-engine fires, as the plan's fired flags. A fresh Engine
 * per run: an Engine keeps one run status, and when its rules sit at several
 * priorities a run that finishes marks it finished, so an overlapping run on a
 * shared Engine would skip its remaining priority sets.
 */
export const firedByJsonRulesEngine = async (tariff: Tariff, facts: PricingFacts): Promise<Uint8Array> => {
  const engine = new Engine(
    tariff.rules.map((rule) => ({
      name: rule.name,
      ...(rule.priority === undefined ? {} : { priority: rule.priority }),
      conditions: rule.conditions as never,
      event: { type: rule.event.type }
    }))
  )
  const { results } = await engine.run({ ...facts })
  const positions = new Map(tariff.rules.map((rule, position) => [rule.name, position]))
  const fired = new Uint8Array(tariff.rules.length)
  for (const result of results) fired[positions.get(String(result.name))!] = 1
  return fired
}

/** Prices with one tariff version, its rules run by json-rules-engine (the reference interpreter). */
export const priceInterpreted = async (tariff: Tariff, request: PricingRequest): Promise<PriceComputation> => {
  const facts = pricingFacts(request)
  return planOf(tariff).price(facts, request.pricing_date, await firedByJsonRulesEngine(tariff, facts))
}

/** An offer request priced: the request as decoded, and its price. */
export interface PricedOffer {
  readonly request: OfferRequest
  readonly price: PriceComputation
}

/** Decodes an offer request `{product}` and prices it on `pricingDate`; every violation is reported together. */
export const priceOfferRequest = (
  tariffs: ReadonlyArray<Tariff>,
  input: unknown,
  pricingDate: CalendarDate
): Either.Either<PricedOffer, ConstraintViolation | TariffNotInForce> => {
  // every offer takes this path: plain branches, no combinators
  const decoded = decodeOfferRequest(input, pricingDate)
  if (Either.isLeft(decoded)) return Either.left(decoded.left)
  const request = decoded.right
  const priced = price(tariffs, pricingRequestOf(request.product, pricingDate))
  return Either.isLeft(priced) ? Either.left(priced.left) : Either.right({ request, price: priced.right })
}

/** An anonymous price offer (spec §2.6) from an offer request, priced on `pricingDate`: a plain function, no Effect. */
export const priceOffer = (
  tariffs: ReadonlyArray<Tariff>,
  input: unknown,
  pricingDate: CalendarDate
): Either.Either<PriceOffer, ConstraintViolation | TariffNotInForce> => {
  const priced = priceOfferRequest(tariffs, input, pricingDate)
  return Either.isLeft(priced) ? Either.left(priced.left) : Either.right(offerOf(priced.right.request, priced.right.price))
}

/** The rating worksheet behind an offer request's price on `pricingDate`: a plain function, no Effect. */
export const explainOffer = (
  tariffs: ReadonlyArray<Tariff>,
  input: unknown,
  pricingDate: CalendarDate
): Either.Either<RatingWorksheet, ConstraintViolation | TariffNotInForce> =>
  Either.map(priceOfferRequest(tariffs, input, pricingDate), (priced) => worksheetOf(priced.price))
