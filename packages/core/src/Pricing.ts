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
import { foldWorksheet, type FiredRule, type PricingFacts, type RatingWorksheet } from "./RatingWorksheet.js"
import { tariffInForce, type Tariff } from "./Tariff.js"
import { compiledTariffOf } from "./TariffCompiler.js"
import { TariffBook } from "./TariffBook.js"
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

/** Prices with a tariff, its rules compiled (the hot path). */
export const priceCompiled = (tariff: Tariff, request: PricingRequest): RatingWorksheet => {
  const facts = pricingFacts(request)
  return foldWorksheet(tariff, facts, request.pricing_date, compiledTariffOf(tariff).fire(facts))
}

/** Prices with a tariff, its rules run by json-rules-engine (the reference interpreter). */
export const priceInterpreted = async (tariff: Tariff, request: PricingRequest): Promise<RatingWorksheet> => {
  const facts = pricingFacts(request)
  return foldWorksheet(tariff, facts, request.pricing_date, await fireRulesInterpreted(tariff, facts))
}

/** Prices with the product's tariff in force on the pricing date. */
export const price = (request: PricingRequest): Effect.Effect<RatingWorksheet, TariffNotInForce, TariffBook> =>
  Effect.flatMap(TariffBook, ({ tariffs }) => {
    const tariff = tariffInForce(tariffs, request.product_name, request.pricing_date)
    return tariff === undefined
      ? Effect.fail(new TariffNotInForce({ product_name: request.product_name, pricing_date: request.pricing_date }))
      : Effect.succeed(priceCompiled(tariff, request))
  })
