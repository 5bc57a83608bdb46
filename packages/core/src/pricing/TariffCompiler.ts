/**
 * The tariff compiler: a rule's condition tree becomes a plain synchronous
 * predicate, once per tariff version at load time, with json-rules-engine's
 * exact semantics — `all` and `any` of nothing both hold; `in`/`notIn` test
 * membership of the value's list; the numeric operators hold only for a fact
 * that parses as a number. A differential test holds it to json-rules-engine,
 * which stays the reference. The pricing plan and the tariff linter both
 * evaluate conditions through it.
 * @module
 */
import { FACT_NAMES, type Condition, type FactCondition, type FactName } from "./Tariff.js"

/** The facts a condition reads. */
export type Facts = Readonly<Record<FactName, unknown>>

/**
 * The facts as a tuple, in the order of the facts the condition was compiled over — a product's facts
 * (`ProductCatalogue.factNamesOf`), or the shipped products' (FACT_NAMES) by default: a compiled condition reads its
 * fact by index, so one property-load site serves every fact at full speed (reading `facts[name]` with a different
 * name per condition would not).
 */
type FactSlots = ReadonlyArray<unknown>

/** A compiled condition over fact slots. */
export type SlotPredicate = (facts: FactSlots) => boolean

/** A compiled condition. */
type Predicate = (facts: Facts) => boolean

const SLOT_OF_FACT = new Map<string, number>(FACT_NAMES.map((name, index) => [name, index]))

/** The facts in FACT_NAMES order: the shipped products' facts, which `compileCondition` reads. */
const factSlotsOf = (facts: Facts): FactSlots => FACT_NAMES.map((name) => facts[name])

/** A rule the compiler cannot evaluate exactly as json-rules-engine would; refused at load time. */
export class TariffNotCompilable extends Error {}

// json-rules-engine's test for the numeric operators: a number, or anything that parses as one
const isNumeric = (value: unknown) =>
  typeof value === "number" ? !Number.isNaN(value) : Number.parseFloat(value as string).toString() !== "NaN"

const compileFactCondition = (
  condition: FactCondition,
  ruleName: string,
  slotOfFact: ReadonlyMap<string, number>
): SlotPredicate => {
  const fact = slotOfFact.get(condition.fact)
  if (fact === undefined)
    throw new TariffNotCompilable(`rule "${ruleName}": there is no fact "${String(condition.fact)}"`)
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
      return (facts) => members.indexOf(facts[fact] as (typeof members)[number]) > -1
    }
    case "notIn": {
      const members = condition.value
      return (facts) => members.indexOf(facts[fact] as (typeof members)[number]) === -1
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
      throw new TariffNotCompilable(
        `rule "${ruleName}": operator "${(condition as { operator: string }).operator}" is not supported by the tariff compiler`
      )
  }
}

/** The predicate of a condition tree over fact slots; throws TariffNotCompilable for what it cannot evaluate exactly. */
export const compileOnSlots = (
  condition: Condition,
  ruleName = "a rule",
  slotOfFact: ReadonlyMap<string, number> = SLOT_OF_FACT
): SlotPredicate => {
  if ("all" in condition) {
    const parts = condition.all.map((inner) => compileOnSlots(inner, ruleName, slotOfFact))
    // json-rules-engine: `all` of nothing holds; the common shapes get a closure of their own
    if (parts.length === 0) return () => true
    if (parts.length === 1) return parts[0]!
    if (parts.length === 2) {
      const [first, second] = parts as [SlotPredicate, SlotPredicate]
      return (facts) => first(facts) && second(facts)
    }
    return (facts) => {
      for (let index = 0; index < parts.length; index++) if (!parts[index]!(facts)) return false
      return true
    }
  }
  if ("any" in condition) {
    const parts = condition.any.map((inner) => compileOnSlots(inner, ruleName, slotOfFact))
    // json-rules-engine: `any` of nothing holds
    if (parts.length === 0) return () => true
    if (parts.length === 1) return parts[0]!
    return (facts) => {
      for (let index = 0; index < parts.length; index++) if (parts[index]!(facts)) return true
      return false
    }
  }
  if ("not" in condition) {
    const inner = compileOnSlots(condition.not, ruleName, slotOfFact)
    return (facts) => !inner(facts)
  }
  if (typeof condition !== "object" || condition === null || !("fact" in condition)) {
    throw new TariffNotCompilable(`rule "${ruleName}": a condition is neither all, any, not nor a fact comparison`)
  }
  return compileFactCondition(condition, ruleName, slotOfFact)
}

/**
 * The predicate of a condition tree over the shipped products' named facts (FACT_NAMES); throws TariffNotCompilable
 * for what it cannot evaluate exactly. A product with facts of its own: `compileOverFacts`.
 */
export const compileCondition = (condition: Condition, ruleName = "a rule"): Predicate => {
  const holds = compileOnSlots(condition, ruleName)
  return (facts) => holds(factSlotsOf(facts))
}

/**
 * The predicate of a condition over facts other than a tariff's — a product's variant rule reads the request's
 * parameters — with the same semantics; `factNames` are the facts it may read, in the order `facts` lists them.
 */
export const compileOverFacts = (
  condition: unknown,
  factNames: ReadonlyArray<string>,
  ruleName: string
): ((facts: ReadonlyArray<unknown>) => boolean) =>
  compileOnSlots(condition as Condition, ruleName, new Map(factNames.map((name, index) => [name, index])))

export { factConditionsOf } from "./Tariff.js"
