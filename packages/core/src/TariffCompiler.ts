/**
 * The tariff compiler: each rule's condition tree becomes a plain synchronous
 * closure, once per tariff version at load time, with json-rules-engine's
 * semantics (TariffConditions states them; a differential test holds the two
 * together). Firing a compiled tariff is a loop over closures: no promises, no
 * engine, no almanac.
 */
import type { FiredRule, PricingFacts } from "./RatingWorksheet.js"
import type { Condition, FactCondition, Tariff } from "./Tariff.js"

type Predicate = (facts: PricingFacts) => boolean

/** A rule the compiler cannot evaluate exactly as json-rules-engine would; refused at load time. */
export class TariffNotCompilable extends Error {}

export interface CompiledTariff {
  readonly tariff: Tariff
  /** The rules whose conditions hold, in tariff order. */
  readonly fire: (facts: PricingFacts) => ReadonlyArray<FiredRule>
}

const isNumeric = (value: unknown) => Number.parseFloat(value as string).toString() !== "NaN"

const compileFactCondition = (condition: FactCondition, ruleName: string): Predicate => {
  const fact = condition.fact
  switch (condition.operator) {
    case "equal": {
      const value = condition.value
      return (facts) => facts[fact] === value
    }
    case "notEqual": {
      const value = condition.value
      return (facts) => facts[fact] !== value
    }
    case "in": {
      const members = condition.value
      return (facts) => members.indexOf(facts[fact]) > -1
    }
    case "notIn": {
      const members = condition.value
      return (facts) => members.indexOf(facts[fact]) === -1
    }
    case "lessThan": {
      const value = condition.value as number
      return (facts) => isNumeric(facts[fact]) && (facts[fact] as number) < value
    }
    case "lessThanInclusive": {
      const value = condition.value as number
      return (facts) => isNumeric(facts[fact]) && (facts[fact] as number) <= value
    }
    case "greaterThan": {
      const value = condition.value as number
      return (facts) => isNumeric(facts[fact]) && (facts[fact] as number) > value
    }
    case "greaterThanInclusive": {
      const value = condition.value as number
      return (facts) => isNumeric(facts[fact]) && (facts[fact] as number) >= value
    }
    default:
      throw new TariffNotCompilable(`rule "${ruleName}": operator "${(condition as { operator: string }).operator}" is not supported by the tariff compiler`)
  }
}

const compileCondition = (condition: Condition, ruleName: string): Predicate => {
  if ("all" in condition) {
    const parts = condition.all.map((inner) => compileCondition(inner, ruleName))
    if (parts.length === 1) return parts[0]!
    return (facts) => {
      for (const part of parts) if (!part(facts)) return false
      return true
    }
  }
  if ("any" in condition) {
    const parts = condition.any.map((inner) => compileCondition(inner, ruleName))
    // json-rules-engine: `any` of nothing holds
    if (parts.length === 0) return () => true
    if (parts.length === 1) return parts[0]!
    return (facts) => {
      for (const part of parts) if (part(facts)) return true
      return false
    }
  }
  if ("not" in condition) {
    const inner = compileCondition(condition.not, ruleName)
    return (facts) => !inner(facts)
  }
  if (typeof condition !== "object" || condition === null || !("fact" in condition)) {
    throw new TariffNotCompilable(`rule "${ruleName}": a condition is neither all, any, not nor a fact comparison`)
  }
  return compileFactCondition(condition, ruleName)
}

/** Compiles every rule of a tariff; throws TariffNotCompilable naming the first rule it cannot compile. */
export const compileTariff = (tariff: Tariff): CompiledTariff => {
  const rules = tariff.rules.map((rule, position) => ({
    holds: compileCondition(rule.conditions, rule.name),
    fired: { name: rule.name, position, instruction: rule.event } satisfies FiredRule
  }))
  return {
    tariff,
    fire: (facts) => {
      const fired: Array<FiredRule> = []
      for (const rule of rules) if (rule.holds(facts)) fired.push(rule.fired)
      return fired
    }
  }
}

const compiledTariffs = new WeakMap<Tariff, CompiledTariff>()

/** The compiled form of a decoded tariff, compiled the first time it is asked for. */
export const compiledTariffOf = (tariff: Tariff): CompiledTariff => {
  let compiled = compiledTariffs.get(tariff)
  if (compiled === undefined) {
    compiled = compileTariff(tariff)
    compiledTariffs.set(tariff, compiled)
  }
  return compiled
}
