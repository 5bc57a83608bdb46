/**
 * Pricing: the tariff in force on the pricing date, its rules fired over
 * precomputed facts, the fired instructions folded into a rating worksheet.
 * Rules fire compiled (TariffCompiler) on every request; json-rules-engine,
 * the tariff's reference interpreter, stays behind this module (STYLE §6) for
 * the workbench and the differential tests.
 */
import { Effect } from "effect"
import { Engine } from "json-rules-engine"
import type { CalendarDate } from "./CalendarDate.js"
import { TariffNotInForce } from "./Errors.js"
import { youngestDriverAge, type ProductParameters } from "./Parameters.js"
import type { FeatureName, ProductName } from "./ProductCatalogue.js"
import { foldPrice, worksheetOf, type FiredRule, type PriceComputation, type PricingFacts, type RatingWorksheet } from "./RatingWorksheet.js"
import { tariffInForce, type Tariff } from "./Tariff.js"
import { compiledTariffOf } from "./TariffCompiler.js"
import { TariffBook, type RuleEngine } from "./TariffBook.js"
import { deriveVariant } from "./Variant.js"

/** What a price depends on, and nothing else. */
export interface PricingRequest {
  readonly product_name: ProductName
  readonly parameters: ProductParameters
  readonly feature: FeatureName
  readonly pricing_date: CalendarDate
}

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

/**
 * Runs the tariff's rules with json-rules-engine. A fresh Engine per run: an
 * Engine keeps one run status, and when its rules sit at several priorities a
 * run that finishes marks it finished, so an overlapping run on a shared Engine
 * would skip its remaining priority sets.
 */
export const fireRulesInterpreted = async (tariff: Tariff, facts: PricingFacts): Promise<Array<FiredRule>> => {
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
    return results
      .map((result) => {
        const position = positions.get(String(result.name))!
        return { name: tariff.rules[position]!.name, position, instruction: tariff.rules[position]!.event }
      })
      .sort((a, b) => a.position - b.position)
}

/** The price as numbers, rules compiled: the hot path of an offer. */
export const computeCompiled = (tariff: Tariff, request: PricingRequest): PriceComputation => {
  const facts = pricingFacts(request)
  return foldPrice(tariff, facts, request.pricing_date, compiledTariffOf(tariff).fire(facts))
}

/** Prices with a tariff, its rules compiled, into the rating worksheet. */
export const priceCompiled = (tariff: Tariff, request: PricingRequest): RatingWorksheet => worksheetOf(computeCompiled(tariff, request))

/** The price as numbers, its rules run by json-rules-engine (the reference interpreter). */
export const computeInterpreted = async (tariff: Tariff, request: PricingRequest): Promise<PriceComputation> => {
  const facts = pricingFacts(request)
  return foldPrice(tariff, facts, request.pricing_date, await fireRulesInterpreted(tariff, facts))
}

/** Prices with a tariff, its rules run by json-rules-engine (the reference interpreter). */
export const priceInterpreted = async (tariff: Tariff, request: PricingRequest): Promise<RatingWorksheet> =>
  worksheetOf(await computeInterpreted(tariff, request))

/** The price as numbers, with the product's tariff in force on the pricing date. */
export const computePrice = (request: PricingRequest): Effect.Effect<PriceComputation, TariffNotInForce, TariffBook> =>
  Effect.flatMap(TariffBook, (book) => {
    const tariff = tariffInForce(book.tariffs, request.product_name, request.pricing_date)
    if (tariff === undefined) return Effect.fail(new TariffNotInForce({ product_name: request.product_name, pricing_date: request.pricing_date }))
    return computeWith(book.rules, tariff, request)
  })

/** Prices with the book's way of firing rules: synchronously when compiled. */
export const computeWith = (rules: RuleEngine, tariff: Tariff, request: PricingRequest): Effect.Effect<PriceComputation> =>
  rules === "compiled" ? Effect.succeed(computeCompiled(tariff, request)) : Effect.promise(() => computeInterpreted(tariff, request))

/** The rating worksheet, with the product's tariff in force on the pricing date. */
export const price = (request: PricingRequest): Effect.Effect<RatingWorksheet, TariffNotInForce, TariffBook> =>
  Effect.map(computePrice(request), worksheetOf)
