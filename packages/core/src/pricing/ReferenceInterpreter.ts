/**
 * json-rules-engine, the tariff's reference interpreter: it decides which
 * rules fire for the workbench (`--engine json-rules-engine`) and the
 * differential tests, and the same pricing plan folds what it fired. The
 * service prices with the compiled tariff only, so the library is an
 * optional peer dependency, imported the first time a reference run asks.
 * @module
 */
import type { RuleProperties } from "json-rules-engine"
import { pricingFacts, type PricingRequest } from "./Pricing.js"
import type { PriceComputation } from "./PricingPlan.js"
import { planOn } from "./TariffPlans.js"
import type { PricingFacts } from "./RatingWorksheet.js"
import type { Tariff } from "./Tariff.js"

type EngineClass = typeof import("json-rules-engine").Engine

let loaded: Promise<EngineClass> | undefined

const engineClass = (): Promise<EngineClass> =>
  (loaded ??= import("json-rules-engine").then(
    ({ Engine }) => Engine,
    (cause: unknown) => {
      loaded = undefined
      throw new Error(
        "the reference interpreter needs json-rules-engine, an optional peer dependency of @kasko/core: install it",
        {
          cause
        }
      )
    }
  ))

/**
 * The rules json-rules-engine fires, as the plan's fired flags. A fresh Engine
 * per run: an Engine keeps one run status, and when its rules sit at several
 * priorities a run that finishes marks it finished, so an overlapping run on a
 * shared Engine would skip its remaining priority sets.
 */
export const firedByJsonRulesEngine = async (tariff: Tariff, facts: PricingFacts): Promise<Uint8Array> => {
  const Engine = await engineClass()
  const engine = new Engine(
    tariff.rules.map(
      (rule): RuleProperties => ({
        name: rule.name,
        ...(rule.priority === undefined ? {} : { priority: rule.priority }),
        conditions: rule.conditions as never,
        event: { type: rule.event.type }
      })
    )
  )
  const { results } = await engine.run({ ...facts })
  const positions = new Map(tariff.rules.map((rule, position) => [rule.name, position]))
  const fired = new Uint8Array(tariff.rules.length)
  for (const result of results) fired[positions.get(String(result.name))!] = 1
  return fired
}

/** Prices with one tariff version, its rules run by json-rules-engine (the reference interpreter). */
export const priceInterpreted = async (tariff: Tariff, request: PricingRequest): Promise<PriceComputation> => {
  const plan = planOn(tariff, request.pricing_date)
  const facts = pricingFacts(request, plan.product)
  return plan.price(facts, request.pricing_date, await firedByJsonRulesEngine(tariff, facts))
}
