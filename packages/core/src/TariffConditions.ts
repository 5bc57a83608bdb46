/**
 * Rule conditions evaluated synchronously, with json-rules-engine's exact
 * semantics (its reference interpreter stays the authority): `all` and `any`
 * of nothing both hold; `in`/`notIn` test membership of the value's list; the
 * numeric operators hold only for a fact that parses as a number.
 */
import type { Condition, FactCondition, FactName } from "./Tariff.js"

export type Facts = Readonly<Record<FactName, unknown>>

type Comparison = (fact: any, value: any) => boolean

const isNumeric = (fact: unknown) => Number.parseFloat(fact as string).toString() !== "NaN"
const numeric =
  (compare: Comparison): Comparison =>
  (fact, value) =>
    isNumeric(fact) && compare(fact, value)

const OPERATORS: Readonly<Record<FactCondition["operator"], Comparison>> = {
  equal: (fact, value) => fact === value,
  notEqual: (fact, value) => fact !== value,
  in: (fact, value: ReadonlyArray<unknown>) => value.indexOf(fact) > -1,
  notIn: (fact, value: ReadonlyArray<unknown>) => value.indexOf(fact) === -1,
  lessThan: numeric((fact, value) => fact < value),
  lessThanInclusive: numeric((fact, value) => fact <= value),
  greaterThan: numeric((fact, value) => fact > value),
  greaterThanInclusive: numeric((fact, value) => fact >= value)
}

/** True when the condition holds for the facts. */
export const conditionHolds = (condition: Condition, facts: Facts): boolean => {
  if ("all" in condition) return condition.all.every((inner) => conditionHolds(inner, facts))
  if ("any" in condition) return condition.any.length === 0 || condition.any.some((inner) => conditionHolds(inner, facts))
  if ("not" in condition) return !conditionHolds(condition.not, facts)
  return OPERATORS[condition.operator](facts[condition.fact], condition.value)
}

/** Every fact condition inside a condition tree. */
export const factConditionsOf = (condition: Condition): Array<FactCondition> => {
  if ("all" in condition) return condition.all.flatMap(factConditionsOf)
  if ("any" in condition) return condition.any.flatMap(factConditionsOf)
  if ("not" in condition) return factConditionsOf(condition.not)
  return [condition]
}
