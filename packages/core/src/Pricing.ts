/**
 * Pricing: the tariff in force on the pricing date, its rules run by
 * json-rules-engine over precomputed facts, the fired instructions folded into
 * a rating worksheet. json-rules-engine stays behind this module (STYLE §6).
 */
import { Effect } from "effect"
import { Engine } from "json-rules-engine"
import type { CalendarDate } from "./CalendarDate.js"
import { TariffNotInForce } from "./Errors.js"
import { youngestDriverAge, type ProductParameters } from "./Parameters.js"
import type { FeatureName, ProductName } from "./ProductCatalogue.js"
import { foldWorksheet, type FiredRule, type PricingFacts, type RatingWorksheet } from "./RatingWorksheet.js"
import { tariffInForce, type Tariff } from "./Tariff.js"
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
export const fireRules = (tariff: Tariff, facts: PricingFacts): Effect.Effect<Array<FiredRule>> =>
  Effect.promise(async () => {
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
    return results.map((result) => {
      const position = positions.get(String(result.name))!
      return { name: tariff.rules[position]!.name, position, instruction: tariff.rules[position]!.event }
    })
  })

/** Prices with a given tariff. */
export const priceWithTariff = (tariff: Tariff, request: PricingRequest): Effect.Effect<RatingWorksheet> => {
  const facts = pricingFacts(request)
  return fireRules(tariff, facts).pipe(
    Effect.map((fired) => foldWorksheet(tariff, facts, request.pricing_date, fired))
  )
}

/** Prices with the product's tariff in force on the pricing date. */
export const price = (request: PricingRequest): Effect.Effect<RatingWorksheet, TariffNotInForce, TariffBook> =>
  Effect.flatMap(TariffBook, ({ tariffs }) => {
    const tariff = tariffInForce(tariffs, request.product_name, request.pricing_date)
    return tariff === undefined
      ? Effect.fail(new TariffNotInForce({ product_name: request.product_name, pricing_date: request.pricing_date }))
      : priceWithTariff(tariff, request)
  })
