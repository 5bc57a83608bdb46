/**
 * Pricing: the tariff in force on the pricing date prices a request through
 * its pricing plan, synchronously — plain functions an embedder can call
 * without Effect (`priceOffer`, `explainOffer`); the Effect API wraps them.
 * json-rules-engine, the tariff's reference interpreter, is in
 * `ReferenceInterpreter.ts`, loaded only by those who run it.
 * @module
 */
import { Result } from "effect"
import type { CalendarDate } from "../input/CalendarDate.js"
import { TariffNotInForce, type ConstraintViolation } from "../Errors.js"
import { decodeOfferRequest, offerOf, type OfferRequest, type PriceOffer } from "../quote/Offer.js"
import { factReadersOf, factValueOf, type ProductParameters } from "../product/Parameters.js"
import type { CoverageScaling, PriceComputation, PricingPlan } from "./PricingPlan.js"
import { planOn, scaledPlanOf } from "./TariffPlans.js"
import {
  type Catalogue,
  productDocument,
  shipped,
  type FeatureName,
  type ProductName
} from "../product/ProductCatalogue.js"
import type { ProductDocument } from "../product/ProductDocument.js"
import type { FactValue } from "./PricingFacts.js"
import { chosenFeature, type ProductSelection } from "../product/ProductSelection.js"
import { worksheetOf, type PricingFacts, type RatingWorksheet } from "./RatingWorksheet.js"
import { tariffInForce, type Tariff } from "./Tariff.js"
import { type Variant, variantOfCase } from "../product/Variant.js"

export type { CoverageScaling, PriceComputation } from "./PricingPlan.js"

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

// each product's parameters that are facts, in its order, and how each is read: read once per product
const FACT_READERS = new WeakMap<ProductDocument, ReturnType<typeof factReadersOf>>()

const factReadersOfProduct = (product: ProductDocument): ReturnType<typeof factReadersOf> => {
  let readers = FACT_READERS.get(product)
  if (readers === undefined) {
    readers = factReadersOf(product.parameters)
    FACT_READERS.set(product, readers)
  }
  return readers
}

/**
 * The facts the tariff's rules read, computed once so the rules need no fact callbacks: the product, variant and
 * feature, then each parameter the product marks as a fact (null when not given); an age a birth date stands for is
 * the age given, or else the birth date's age on the pricing date. `product` is the request's product's document
 * (the shipped one of its name unless given; a tariff's plan knows its own).
 */
export const pricingFacts = (
  request: PricingRequest,
  product: ProductDocument | undefined = productDocument(request.product_name)
): PricingFacts => {
  if (product === undefined) throw new Error(`the catalogue has no product ${request.product_name}`)
  const facts: Record<string, FactValue> = {
    product_name: request.product_name,
    variant: variantOfCase(product, request.parameters),
    feature: request.feature
  }
  const readers = factReadersOfProduct(product)
  for (let index = 0; index < readers.length; index++) {
    const reader = readers[index]!
    facts[reader.name] = factValueOf(reader, request.parameters, request.pricing_date)
  }
  return facts as PricingFacts
}

/** Prices with one tariff version, its rules compiled: the service's way. */
export const priceWith = (tariff: Tariff, request: PricingRequest): PriceComputation => {
  const plan = planOn(tariff, request.pricing_date)
  const facts = pricingFacts(request, plan.product)
  return plan.price(facts, request.pricing_date, plan.fire(facts))
}

/**
 * Prices with one tariff version whose coverage `scaling.coverage` has its rates scaled by
 * `scaling.factor` exactly (`TariffPlans.scaledPlanOf`): the actuary's workbench solves for
 * the factor that makes a book's premium hit a target. Makes a plan per call: price many
 * requests with `scaledPricer`.
 */
export const priceWithScaling = (tariff: Tariff, request: PricingRequest, scaling: CoverageScaling): PriceComputation =>
  scaledPricer(tariff, scaling)(request)

/** A function pricing requests with the tariff scaled as `priceWithScaling` says, its plan made once. */
export const scaledPricer = (
  tariff: Tariff,
  scaling: CoverageScaling
): ((request: PricingRequest) => PriceComputation) => {
  // one plan per version of the product the requests were decoded against (`planOn` says which)
  const plans = new Map<ProductDocument | undefined, PricingPlan>()
  return (request) => {
    const product = planOn(tariff, request.pricing_date).product
    let plan = plans.get(product)
    if (plan === undefined) {
      plan = scaledPlanOf(tariff, scaling, product)
      plans.set(product, plan)
    }
    const facts = pricingFacts(request, plan.product)
    return plan.price(facts, request.pricing_date, plan.fire(facts))
  }
}

/**
 * Prices a request as if its parameters made the given variant, all else as
 * it is: what the variant alone changes in the answer (the workbench shows
 * it beside a case). The service never prices this way.
 */
export const priceAsVariant = (tariff: Tariff, request: PricingRequest, variant: Variant): PriceComputation => {
  const plan = planOn(tariff, request.pricing_date)
  const facts = { ...pricingFacts(request, plan.product), variant }
  return plan.price(facts, request.pricing_date, plan.fire(facts))
}

/** Prices with the product's tariff in force on the pricing date. */
export const price = (
  tariffs: ReadonlyArray<Tariff>,
  request: PricingRequest
): Result.Result<PriceComputation, TariffNotInForce> => {
  const tariff = tariffInForce(tariffs, request.product_name, request.pricing_date)
  return tariff === undefined
    ? Result.fail(new TariffNotInForce({ product_name: request.product_name, pricing_date: request.pricing_date }))
    : Result.succeed(priceWith(tariff, request))
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
  pricingDate: CalendarDate,
  catalogue: Catalogue = shipped
): Result.Result<PricedOffer, ConstraintViolation | TariffNotInForce> => {
  // every offer takes this path: plain branches, no combinators
  const decoded = decodeOfferRequest(input, pricingDate, catalogue)
  if (Result.isFailure(decoded)) return Result.fail(decoded.failure)
  const request = decoded.success
  const priced = price(tariffs, pricingRequestOf(request.product, pricingDate))
  return Result.isFailure(priced) ? Result.fail(priced.failure) : Result.succeed({ request, price: priced.success })
}

/** An anonymous price offer (spec §2.6) from an offer request, priced on `pricingDate`: a plain function, no Effect. */
export const priceOffer = (
  tariffs: ReadonlyArray<Tariff>,
  input: unknown,
  pricingDate: CalendarDate,
  catalogue: Catalogue = shipped
): Result.Result<PriceOffer, ConstraintViolation | TariffNotInForce> => {
  const priced = priceOfferRequest(tariffs, input, pricingDate, catalogue)
  return Result.isFailure(priced)
    ? Result.fail(priced.failure)
    : Result.succeed(offerOf(priced.success.request, priced.success.price))
}

/** The rating worksheet behind an offer request's price on `pricingDate`: a plain function, no Effect. */
export const explainOffer = (
  tariffs: ReadonlyArray<Tariff>,
  input: unknown,
  pricingDate: CalendarDate,
  catalogue: Catalogue = shipped
): Result.Result<RatingWorksheet, ConstraintViolation | TariffNotInForce> =>
  Result.map(priceOfferRequest(tariffs, input, pricingDate, catalogue), (priced) => worksheetOf(priced.price))
